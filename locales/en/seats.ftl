# Seats without Telegram (bot/game): the host seats a player by nickname and presses its buttons.
# Keys seats.* (ids seats-*).

## seats

seats-for = <b>📵 №{ $seat } { $name }</b> plays without Telegram; you press the buttons:
seats-lobby_mark = no Telegram
seats-played_by_host = Seat №{ $seat } plays without Telegram tonight: the host presses for it.
seats-not_yours = This button is not yours: only this game's host presses for a seat without Telegram.
seats-add-usage = Usage: <code>/addseat NICK [m|f]</code> — a seat the host presses for: a player with Telegram confirms in private first; the host gets the seat's card and buttons.
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
seats-add-guest = { $nick } is a guest of this game without Telegram, seat №{ $seat }: no nickname of the network is taken and nothing is ranked. The host gets the card and the buttons.
seats-ask-text =
    The host { $host } asks to seat you at game #{ $game } in the club “{ $club }”: the host presses the buttons for your seat, and the game's result counts for you.{ $friendly }
    Do you agree?
seats-ask-friendly = {" "}It is a friendly game: no points are counted.
seats-ask-yes = ✅ Yes, seat me
seats-ask-no = No
seats-ask-sent = Asked { $nick }: seat №{ $seat } waits for the player to confirm in private.
seats-ask-already = { $nick } has been asked already: waiting for the answer.
seats-ask-lobby_line = №{ $seat } { $name } — waiting to confirm
seats-ask-closed = This question is closed: no answer is needed.
seats-ask-declined = All right: you will not be seated at game #{ $game }.
seats-ask-seated = You sit at game #{ $game }, seat №{ $seat }: the host presses for you.
seats-ask-closed_yes = You agreed: your seat at game #{ $game } is taken.
seats-ask-closed_no = You declined the seat at game #{ $game }.
seats-ask-closed_failed = The seat at game #{ $game } could not be taken.
seats-ask-closed_deal = The cards of game #{ $game } are dealt: the game goes on without you.
seats-ask-closed_closed = Game #{ $game } no longer takes seats.
seats-ask-host_yes = { $nick } agreed: seat №{ $seat }, you press the buttons.
seats-ask-host_no = { $nick } declined the seat: not seated.
seats-ask-host_failed = { $nick } agreed but could not sit (already in another game, or the table is full).
seats-ask-host_deal = { $nick } did not answer before the deal: the game goes on without that seat.
seats-ask-host_closed = { $nick } did not answer: the lobby is closed.
seats-ask-closed_withdrawn = The host withdrew the question about a seat at game #{ $game }.
seats-ask-host_withdrawn = { $nick }: the question about a seat is withdrawn.
