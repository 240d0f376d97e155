// The account link in the top bar of the game's own pages (lobby, table, replay): signed-in
// name or "Sign in". On the lobby, a signed-in player's name fills "Your name" (the server
// seats him under the account's name anyway), so creating a table asks for nothing more.
import { onLang } from "/static/common.js";
import { initNav, drawNav } from "/static/account.js";

onLang(drawNav);
initNav().then((who) => {
  const name = document.getElementById("name");
  if (who && name && !name.value.trim()) name.value = who.name;
});
