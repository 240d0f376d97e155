"""The lobby's seat menu offers the named bot levels (spades.bots.levels) by their names in the
page's language, says in a line what each is like, and a table made with them starts."""

from __future__ import annotations

from typing import Any

from pageserver import Server


def test_the_seat_menu_offers_the_levels_in_the_pages_language(server: Server, browser: Any) -> None:
    ctx = browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 820})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/")
    page.wait_for_selector("#seat-0 option[value='bot:club']", state="attached")
    values = page.eval_on_selector_all("#seat-0 option", "os => os.map((o) => o.value)")
    assert values[2:4] == ["bot:beginner", "bot:club"], values  # after "me" and "open"
    assert "bot:random" in values  # the other bots stay, in their own group
    words = page.inner_text("#seat-0")
    assert "Débutant" in words and "Joueur de club" in words and "Beginner" not in words
    notes = page.inner_text("#levels")
    assert "Débutant : " in notes and "Joueur de club : " in notes and "n'annonce jamais Nil" in notes
    # a table with a beginner and two club players starts
    page.fill("#name", "Zoé")
    for seat, choice in ((0, "bot:club"), (1, "bot:beginner"), (2, "me"), (3, "bot:club")):
        page.select_option(f"#seat-{seat}", choice)
    page.click("#btn-create")
    page.wait_for_selector("#go-table")
    assert page.inner_text("#rules-error") == ""
    page.click("#go-table")
    page.wait_for_selector(".chip.you")
    # The bots' seats say their level in French too ("(bot de club)"), not the spec's word.
    page.get_by_text("(bot de club)").first.wait_for()
    assert page.get_by_text("(club bot)").count() == 0 and page.get_by_text("(bot club)").count() == 0
    assert errors == []
    ctx.close()
