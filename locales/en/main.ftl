# English texts (Project Fluent). HTML parse mode; $variables are filled by views/i18n.py (strings escaped).
# The code's key start.new is the id start-new here. Every id must exist in ru/ with the same
# $variables; counts use plural selectors (tests/bot/test_i18n.py, tests/bot/test_plurals.py).

## start

start-new =
    Welcome to the Mafia club, { $name }! 🎭
    Choose a nickname to collect points: <code>/nick NAME</code>. All commands: /help
start-back = Welcome back, { $name }! All commands: /help
start-lobby_not_found = This game lobby is not found or is already closed.
start-bad_payload = This link is not valid. All commands: /help

## help

help-private =
    <b>Mafia club bot</b>
    /nick NAME — your nickname (needed to collect points)
    /profile — your profile: the rating, cards, rivals and charts
    /lang — language
    /sex — your sex (needed for “Let's be friends”)
    /spouse NICK — propose to a player; /divorce
    /balance — your points, rank and their expiry date
    /stats [NICK] — a record: games, cards, points
    /evenings — the club evenings you signed up for, your seat or place on the waitlist
    /top — leaderboard by points; /top rating — by skill rating; /top role CARD — the best with a card
    /season — the season under way and the Hall of Fame
    /complain NICK TEXT — complain about a player's behaviour (up to { $complaints ->
        [one] { $complaints } complaint
       *[other] { $complaints } complaints
    } a day)
    During a game: /myrole — your card, /friend — order “Let's be friends”
help-admin =
    <b>Admin</b>
    /redeem NICK POINTS REASON — exchange points for a gift
    /adjust NICK POINTS REASON — correct a balance (POINTS may be negative)
    /block NICK [REASON], /unblock NICK
    /export [xlsx] — balances as CSV or .xlsx
    /complaints — complaint counts
    /clubs — the clubs; /club approve|refuse|suspend CHAT_ID, /club set CHAT_ID CITY; NAME; TIME ZONE; FIRST ADMIN
    /staff — the network's staff: /staff clubadmin CHAT_ID add|remove NICK (owners also: /staff admin add|remove NICK)
    /network — the caps on fines: <code>/network fine_cap N</code>, <code>/network game_fine_cap N</code>; the seasons: <code>/network season START END [NAME]</code>, <code>/network season delete START</code>
    /void GAME REASON — take a finished game back (its points and fines)
help-club_admin =
    <b>Club admin</b> ({ $clubs })
    /staff — your club's hosts: /staff host CHAT_ID add|remove NICK (in the club chat: /staff host add NICK); whether the chat's administrators host: /staff chatadmins CHAT_ID on|off
    /settings — in the club chat: language, timers, a foul's fine (/settings fine N, up to the network's cap), hosts, compositions
    /evening — in the club chat: announce an evening; /evenings — yours
    /void GAME REASON — take a game of your club back within 7 days of its end
    A gift asked to be collected at your club: its notice comes to you here, with ✅ Handed over / ✖ Cancel
    Your club's time zone (it dates the games and evenings) is set by a network admin: ask one to send /club set with the right zone
    In a forum, make the bot a group admin with "Manage topics": each table then plays in its own topic
help-group =
    <b>Mafia club bot</b>
    A host announces an evening here: /evening (sign-up with a button under its post); on the night /invite seats those who signed up.
    The host runs the game here: /newgame, /seat, /addseat, /unseat, /roles, /deal, /night, /day, /vote, /fate, /speak, /status, /foul, /unfoul, /tech, /pause, /resume, /extend, /endgame.
    Several tables in one chat: a table's number after /status, /deal, /night, /day, /vote, /pause, /resume, /endgame or /invite names it, e.g. /status 2.
    Players: open the bot in private and press Start, then “I play” under the game's lobby.
    /top — the club's leaderboard; /season — the season and the Hall of Fame; /stats NICK — a player's record (in private with the bot).

## misc

misc-unknown_command = Unknown command. All commands: /help
misc-not_a_command = I understand commands only. All commands: /help
misc-error = Something went wrong. Please try again later.
misc-database_unavailable = The database is restarting: nothing was changed. Try again in a moment.
misc-slow_down = Too many messages at once: slow down a little. What you send in the next seconds is ignored.
misc-not_registered = Please press /start first.
misc-account_blocked = Your account is blocked by the administration.
misc-none = —
misc-stale_button = This button is no longer active.

## nick

nick-usage = Usage: <code>/nick NAME</code> (3–24 letters, digits, spaces, _ or -).
nick-set = Your nickname is now <b>{ $nick }</b>.
nick-same = Your nickname is already <b>{ $nick }</b>.
nick-taken = The nickname <b>{ $nick }</b> is taken. Choose another one.
nick-too_short = This nickname is too short: at least { $min ->
        [one] { $min } character
       *[other] { $min } characters
    }.
nick-too_long = This nickname is too long: at most { $max ->
        [one] { $max } character
       *[other] { $max } characters
    }.
nick-bad_chars = A nickname may contain only letters, digits, spaces, _ and -.
nick-no_letter_or_digit = A nickname needs at least one letter or digit.

## profile

profile-text =
    <b>Profile</b>
    Name: { $name }
    Nickname: { $nick }
    Language: { $lang }
    Sex: { $sex }
    { $spouse_sex ->
        [f] Wife
        [m] Husband
       *[other] Spouse
    }: { $spouse }
    Games played: { $games }
    Account: { $status }
profile-no_nick = not set (/nick NAME)
profile-status_ok = active
profile-status_blocked = blocked

## lang

lang-prompt = Choose your language:
lang-set = Language: English.
lang-name_ru = Русский
lang-name_en = English

## sex

sex-prompt = Choose your sex (needed for the “Let's be friends” immunity):
sex-set = Sex: { $sex }.
sex-m = male
sex-f = female
sex-button_m = ♂ Male
sex-button_f = ♀ Female

## spouse

spouse-usage = Usage: <code>/spouse NICK</code>
spouse-sent = Proposal sent to <b>{ $nick }</b>. They have to confirm it.
spouse-proposal = <b>{ $nick }</b> wants to register you as their spouse. Do you agree?
spouse-accept = ✅ Yes
spouse-decline = ❌ No
spouse-married = You and <b>{ $nick }</b> are now registered spouses. 💍
spouse-declined = The proposal from <b>{ $nick }</b> is declined.
spouse-declined_notice = <b>{ $nick }</b> declined your proposal.
spouse-self = You cannot marry yourself.
spouse-already_married = One of you is already married (/divorce first).
spouse-no_proposal = This proposal is no longer valid.
spouse-divorced = You are divorced from <b>{ $nick }</b>.
spouse-divorced_notice = <b>{ $nick }</b> divorced you.
spouse-not_married = You are not married.
spouse-need_nick = Set your nickname first: <code>/nick NAME</code>.

## balance

balance-text = <b>Balance:</b> { $points ->
        [one] { $points } point
       *[other] { $points } points
    }
balance-rank = Rank: { $rank } of { $total }
balance-unranked = Not on the leaderboard yet.
balance-recent = <b>Recent points:</b>
balance-row = { DATE($day, format: "%Y-%m-%d") }  { SIGNED($points) }  { $reason }
balance-no_rows = No points yet.
balance-expires = Your points expire on { DATE($date, format: "%Y-%m-%d") } unless you play before.
balance-no_expiry = Your points do not expire until you play a game.

## ledger

ledger-game = game #{ $game }: { $reason }
ledger-adjust = adjustment: { $reason }
ledger-redeem = gift: { $reason }
ledger-expiry_burn = expired (2 months without games)
ledger-block_burn = burned: account blocked

## top

top-header = <b>Leaderboard</b>
top-row = { $rank }. { $nick } — { $points }
top-empty = Nobody has points yet.

## complain

complain-usage = Usage: <code>/complain NICK TEXT</code>
complain-sent = Your complaint about <b>{ $nick }</b> is recorded. Thank you.
complain-self = You cannot complain about yourself.

## admin

admin-denied = This command is for admins only.
admin-not_found = No player with the nickname <b>{ $nick }</b>.
admin-redeem_usage = Usage: <code>/redeem NICK POINTS REASON</code> (POINTS is a positive whole number).
admin-adjust_usage = Usage: <code>/adjust NICK POINTS REASON</code> (POINTS is a whole number, not 0).
admin-block_usage = Usage: <code>/block NICK [REASON]</code>
admin-unblock_usage = Usage: <code>/unblock NICK</code>
admin-insufficient = <b>{ $nick }</b> has only { $balance ->
        [one] { $balance } point
       *[other] { $balance } points
    }, cannot redeem { $points }.
admin-adjust_insufficient = Cannot take { $points ->
        [one] { $points } point
       *[other] { $points } points
    } from <b>{ $nick }</b>: the balance is { $balance ->
        [one] { $balance } point
       *[other] { $balance } points
    }.
admin-invalid_amount = Invalid amount of points: { $points }.
admin-redeemed = Redeemed { $points ->
        [one] { $points } point
       *[other] { $points } points
    } from <b>{ $nick }</b> ({ $reason }). Balance: { $balance }.
admin-redeemed_notice = { $points ->
        [one] { $points } point was exchanged
       *[other] { $points } points were exchanged
    } for: { $reason }. Balance: { $balance }.
admin-adjusted = Adjusted <b>{ $nick }</b> by { SIGNED($points) } ({ $reason }). Balance: { $balance }.
admin-adjusted_notice = Your balance was adjusted by { SIGNED($points) }: { $reason }. Balance: { $balance }.
admin-blocked = <b>{ $nick }</b> is blocked; their points are burned.
admin-blocked_notice = Your account is blocked by the administration. Reason: { $reason }
admin-already_blocked = <b>{ $nick }</b> is already blocked.
admin-unblocked = <b>{ $nick }</b> is unblocked.
admin-unblocked_notice = Your account is unblocked. Welcome back!
admin-not_blocked = <b>{ $nick }</b> is not blocked.
admin-no_reason = not given
admin-export_caption = Balances on { DATE($date, format: "%Y-%m-%d") }
admin-complaints_header = <b>Complaints</b>
admin-complaints_row = { $nick } — { $count }
admin-complaints_empty = No complaints.
admin-status_header = <b>Status</b> · version { $version } · up { $days }d { $hours }h { $minutes }m
admin-status_one_process = One process (SQLite).
admin-status_process = • Process { $session }: { $roles }; { $clubs ->
        [one] { $clubs } club
       *[other] { $clubs } clubs
    }
admin-status_process_this = ▶ Process { $session }: { $roles }; { $clubs ->
        [one] { $clubs } club
       *[other] { $clubs } clubs
    }
admin-status_role_poller = receives the updates
admin-status_role_sender = sends the messages
admin-status_role_expiry = runs the expiry
admin-status_load = Open games: { $games }. In the last minute: updates { $updates }, messages sent { $messages }.
admin-status_outbox = Outbox: { $pending } waiting, the oldest for { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }.
admin-status_outbox_empty = Outbox: empty.

## expiry

expiry-warning = ⏳ Your nickname <b>{ $nick }</b> and { $points ->
        [one] { $points } point
       *[other] { $points } points
    } expire on { DATE($date, format: "%Y-%m-%d") }. Come to a game before then to keep them!
expiry-burned = Your nickname and points expired after two months without games. Choose a new nickname with <code>/nick NAME</code>.

## commands

commands-start = Start the bot
commands-help = Help
commands-nick = Set your nickname
commands-profile = Your profile
commands-lang = Language
commands-sex = Your sex
commands-spouse = Register a spouse
commands-divorce = Divorce
commands-balance = Points and rank
commands-top = Leaderboard
commands-season = The season and the Hall of Fame
commands-complain = Complain about a player
commands-myrole = Your role card again
commands-friend = Order “Let's be friends”
commands-panel = The host's panel of your game again
commands-newgame = Open a game lobby
commands-roles = Show or set the roles
commands-deal = Deal the cards
commands-night = Start the night
commands-day = Start the day
commands-vote = Start the vote
commands-status = Game status
commands-tech = Technical death: /tech SEAT
commands-pause = Pause the game
commands-resume = Resume the game
commands-extend = Extend the deadline: /extend SECONDS
commands-endgame = End the game

## operators' alerts (OPS_CHAT_ID)

ops-alert-outbox = ⚠️ The outbox is behind: its oldest message has waited since { $since } UTC; waiting: { $pending }.
ops-alert-telegram_429 = ⚠️ Telegram answers 429 (too many requests), in the last minute: { $count }.
ops-alert-database = ⚠️ The database does not answer, since { $since } UTC.
ops-alert-stuck = ⚠️ Game #{ $game } is stuck: its deadline passed at { $since } UTC and nothing has happened since.
ops-alert-malformed = ⚠️ Updates the bot could not read, or has no handler for, were skipped (the log: "update skipped").
ops-resolved-outbox = ✅ Resolved: the outbox caught up (it lasted { $lasted }).
ops-resolved-telegram_429 = ✅ Resolved: no more 429s (they lasted { $lasted }).
ops-resolved-database = ✅ Resolved: the database answers again (it lasted { $lasted }).
ops-resolved-stuck = ✅ Resolved: game #{ $game } is no longer stuck (it lasted { $lasted }).
ops-resolved-malformed = ✅ Resolved: no update skipped for ten minutes (it lasted { $lasted }).
ops-event-takeover = ℹ️ Process { $lost } was lost: process { $session } took over { $what } (restored in { $lasted }).
ops-event-takeover_unknown = ℹ️ A process was lost: process { $session } took over { $what } (restored in { $lasted }).
ops-what-roles = the roles ({ $roles })
ops-what-clubs = clubs: { $clubs }
