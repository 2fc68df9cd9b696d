# The club's evenings: the announcement and its live list, sign-ups, the waitlist, reminders
# (bot/evenings/, views/evenings.py).

## the evening's time: "Fri 05.12, 19:30"

# a day and a month an English reader cannot swap: "Sat 05 Dec" (the host types 05.12)
evening-when = { $weekday } { DATE($at, format: "%d %b") }, { DATE($at, format: "%H:%M") }
evening-weekday-0 = Mon
evening-weekday-1 = Tue
evening-weekday-2 = Wed
evening-weekday-3 = Thu
evening-weekday-4 = Fri
evening-weekday-5 = Sat
evening-weekday-6 = Sun

## the post in the club chat

evening-post-head =
    🗓 <b>Game evening: { $when }</b>
    Tables: { $tables }, seats at each: { $seats }, seats in all: { $capacity }.
evening-post-seated = <b>Signed up</b> ({ $count } of { $capacity }):
evening-post-line = { $place }. { $name }
evening-post-empty = Nobody has signed up yet.
evening-post-waitlist = <b>Waitlist:</b>
evening-post-more = …and more on the waitlist: { $more }
evening-post-open = Sign up or cancel with the buttons below, or in the private chat with the bot: /evenings. When a seat frees up, the first on the waitlist gets it and the bot tells them.
evening-post-started = Sign-up is closed: the evening has begun.
evening-post-cancelled = ❌ The evening is cancelled.
evening-button-in = ✅ I'm in
evening-button-out = Cancel

## a place on the list

evening-place-seat = seat { $place } of { $capacity }
evening-place-waiting = #{ $place } on the waitlist

## answers to the buttons

evening-signed = You're signed up: seat { $place } of { $capacity }.
evening-signed_waiting = No seats left: you're #{ $place } on the waitlist. If a seat frees up, the bot will tell you.
evening-already = You're signed up already: seat { $place } of { $capacity }.
evening-already_waiting = You're on the waitlist already: #{ $place }.
evening-left = Your sign-up is cancelled.
evening-not_listed = You're not on this evening's list: nothing to cancel.
evening-not_registered = Start the bot in a private chat first: @{ $bot }
evening-blocked = Your account is blocked by the administration: you cannot sign up.
evening-no_nick = To sign up you need a nickname: /nick NICK in the private chat with the bot.
evening-refused-started = Sign-up is closed: the evening has begun.
evening-refused-cancelled = This evening is cancelled.
evening-refused-closed = This evening is over.
evening-refused-unknown = There is no such evening.

## in private

evening-promoted = 🎉 A seat freed up and it's yours: the game evening at “{ $club }”, { $when }. Your place: { $place }.
evening-cancelled = ❌ The game evening at “{ $club }” ({ $when }) is cancelled. Your sign-up ({ $place }) is void.
evening-remind-day =
    📅 Reminder: the game evening at “{ $club }” — { $when }. Your place: { $place }.
    Can't come? Cancel your sign-up: /evenings
evening-remind-soon =
    ⏰ Starting soon: the game evening at “{ $club }” — { $when }. Your place: { $place }.
    Can't come? Cancel your sign-up: /evenings
evening-mine-none = You're not signed up for any evening. Sign up with the button under an evening's post in the club chat.
evening-mine-head = <b>Your evenings</b>
evening-mine-line = { $when } — “{ $club }”: { $place }
evening-mine-cancel = ✖ Cancel: { $when }
evening-profile-line = Evening: { $when }, “{ $club }” — { $place }
evening-no_shows = No-shows (signed up for an evening and did not come): { $no_shows }

## the host: /evening

evening-usage = Announce an evening: /evening DD.MM HH:MM TABLES SEATS_PER_TABLE, e.g. /evening 05.12 19:30 2 12. Or just /evening and the bot asks with buttons. Cancel an evening: /evening cancel [DD.MM [HH:MM]].
evening-bad_day = Cannot read the day “{ $text }”: DD.MM, e.g. 05.12.
evening-bad_time = Cannot read the time “{ $text }”: HH:MM, e.g. 19:30.
evening-bad_number = “{ $text }” is not a whole number: tables and seats per table are whole numbers.
evening-zero = An evening needs at least one table and at least one seat at it.
evening-too_many_tables = At most { $most } tables.
evening-too_many_seats = At most { $most } seats at one table.
evening-past = That time has passed ({ $when }): only a future evening can be announced.
evening-exists = An evening on { $when } is announced already.
evening-not_host = Only the chat's administrators and the club's hosts announce or cancel an evening.
evening-cancel-none = Nothing to cancel: the club has no evening announced.
evening-cancel-which = Several evenings are announced: { $evenings }. Which one? /evening cancel DD.MM HH:MM
evening-cancel-done = The evening { $when } is cancelled; the bot tells everyone who signed up.

## the host's dialog: /evening without words

evening-dialog-day = 🗓 A new game evening. Which day?
evening-dialog-time = 🗓 { $day }. What time does it start?
evening-dialog-tables = 🗓 { $when }. How many tables?
evening-dialog-seats = 🗓 { $when }, tables: { $tables }. How many seats at each table?
evening-dialog-day_button = { $weekday } { DATE($day, format: "%d %b") }
evening-dialog-close = ✖ Close
evening-dialog-closed = No evening announced.
evening-dialog-done = Evening announced: { $when }.

## the night: a lobby invites the list (bot/game/rooms/guests.py)

evening-offer-head = 🗓 The club's evening is tonight: { $when }. Signed up for seats: { $signed }, on the waitlist: { $waiting }; tables: { $tables }, seats at each: { $seats }.
evening-offer-pending = 📨 Invited and not here yet: { $names }. Their seats are held: each sits down on pressing “✅ I'm here”.
evening-offer-more = Invite the signed-up players to your table? Each gets a private message and is seated on confirming they have come; their seats are held until then. Everyone else joins with “I play”.
evening-offer-done = Nobody left to invite: the signed-up players are invited or seated.
evening-offer-button = 📨 Invite the signed-up ({ $count })
evening-invite-no_evening = The club has no evening tonight: nobody to invite.
evening-invite-none = Nobody to invite: the signed-up players are invited or seated, or the table is full.
evening-invite-sent = Invitations sent: { $invited }.
evening-invite-waiting = Nobody new to invite. Invited and not here yet: { $names }.
evening-invitation = 🎲 Table { $number } (game #{ $game }) at “{ $club }” is gathering, and you signed up for the evening ({ $when }). Here? Press “✅ I'm here” and the bot seats you.
evening-checkin-button = ✅ I'm here
evening-checkin-done = ✅ You're at Table { $number }: seat №{ $seat } (game #{ $game }).
evening-checkin-not_invited = This invitation is not for you, or no longer stands.
evening-join-held = The seats left at Table { $number } are held for the signed-up players invited to it ({ $held } not here yet). Ask the host.
commands-invite = Invite the evening's signed-up players to the table

## the command menus

commands-evening = Announce a game evening with sign-up
commands-evenings = My evenings: seat or waitlist
