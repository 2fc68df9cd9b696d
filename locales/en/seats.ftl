# Seats without Telegram (bot/game): the host seats a player by nickname and presses its buttons.
# Keys seats.* (ids seats-*).

## seats

seats-for = <b>📵 №{ $seat } { $name }</b> plays without Telegram; you press the buttons:
seats-lobby_mark = no Telegram
seats-played_by_host = Seat №{ $seat } plays without Telegram tonight: the host presses for it.
seats-not_yours = This button is not yours: only this game's host presses for a seat without Telegram.
seats-add-usage = Usage: <code>/addseat NICK [m|f]</code> — a seat for a player without Telegram; the host gets its card and buttons.
seats-add-ok = { $nick } sits at seat №{ $seat } without Telegram: the host gets the card and the buttons.
seats-add-new = A new account without Telegram for { $nick }; seat №{ $seat }. The host gets the card and the buttons.
seats-add-already = { $nick } is already at the table: seat №{ $seat }.
seats-add-other_game = { $nick } has already joined game #{ $game }.
seats-add-blocked = The account { $nick } is blocked by the administration.
seats-unseat-usage = Usage: <code>/unseat NICK</code>
seats-unseat-ok = { $nick } no longer sits at the table.

commands-addseat = A seat without Telegram: /addseat NICK [m|f]
commands-unseat = Take a player off the lobby: /unseat NICK
seats-offline_account = { $nick } has no Telegram (an account without Telegram): nobody could answer.

## the table's picture in the club chat (with the day's first post; every card at the end)

seats-picture-day = Game #{ $game } — day { $day }
seats-picture-end = Game #{ $game } — the end: every card
