# Game texts (bot/game), keys game.* (ids game-*).
# No card name may reach the club chat before the game is over.

## game

game-nobody = nobody
game-and = and
game-lobby-empty = Nobody sits at the table yet.
game-seat = №{ $seat } { $name }
game-not_found = This game is not found or is over.
game-none_in_chat = There is no game in this chat. The host opens a lobby with /newgame.
game-not_host = Only this game's host may do that.
game-not_host_rights = A game is opened by a chat administrator or a host listed in the bot's settings.
game-already_open = Game #{ $game } is already open in this chat. End it with /endgame.
game-stale = This button is out of date: that part of the game is over.
game-paused = The game is paused. Wait until the host resumes it.
game-busy = Finish the current part of the game first.
game-aborted = The host aborted the game. No points are given for it, and its fines are given back.
game-aborted_ok = Game aborted.
game-restarted = The bot restarted; the game goes on.
game-blocked_bot = { $who } blocked the bot and gets no messages. The game goes on: the timer acts for { $sex ->
        [f] her
        [m] him
       *[other] them
    }.
game-evening = The vote is over. The host starts the next night.
game-card =
    <b>Your card</b> (game #{ $game }, seat №{ $seat }): <b>{ $role }</b>
    Team: { $team }
    { $about }
game-lobby-text =
    <b>Game #{ $game }: taking seats</b> ({ $count ->
        [one] { $count } player
       *[other] { $count } players
    })
    { $seats }

    Press “I play” to take a seat. If you have not started the bot in private yet, open it with the button below.{ $friendly }
game-lobby-friendly =
    {""}

    🤝 <b>A friendly game</b>: the network has not approved this club yet, so no points are counted for this game (none won, no fines) and it counts toward no rating or statistics.
game-lobby-closed_expired = <b>Game #{ $game }: the lobby is closed</b> — no cards were dealt within { $hours ->
        [one] { $hours } hour
       *[other] { $hours } hours
    }. The seats are free.
game-lobby-closed_host_left = <b>Game #{ $game }: the lobby is closed</b> — the host left the chat. The seats are free.
game-lobby-join = I play
game-lobby-leave = Leave
game-lobby-open_bot = Open the bot
game-join-host = The host sees every card and cannot play at this table.
game-join-not_registered = Start the bot in private first: { $link }
game-join-blocked = Your account is blocked by the administration: you cannot play.
game-join-no_nick = To play and collect points you need a nickname: /nick NAME in private with the bot.
game-join-closed = This game is no longer taking seats.
game-join-already = You are already at the table: seat №{ $seat }.
game-join-other_game = You are already in game #{ $game }.
game-join-full = The table is full.
game-join-ok = You are at the table: seat №{ $seat } (game #{ $game }).
game-leave-not_joined = You are not at this table.
game-leave-ok = You left the table.
game-reseat-unknown = Nobody with the nickname { $nick } sits at this table.
game-reseat-bad_number = A seat is a number from 1 to { $max }.
game-reseat-ok = { $nick } now sits at seat №{ $seat }.
game-reseat-usage = Usage: <code>/seat NICK NUMBER</code>
game-roles-to_host = This game's composition was sent to the host in private.
game-roles-unknown = Unknown card: { $name }. Cards: { $cards }; “Mafia*3” means three cards.
game-roles-show = <b>Composition ({ $count ->
        [one] { $count } card
       *[other] { $count } cards
    })</b>: { $roles }
game-fate-mode_host = Shoot-outs will be decided by the host's draw, in this game and the club's next ones.
game-fate-mode_bot = Shoot-outs will be decided by the bot's draw, in this game and the club's next ones.
game-fate-host_draws = Shoot-out: { $tied }. The host draws.
game-fate-ask = Shoot-out: { $tied }. Choose who leaves by the draw.
game-fate-drawn = The lot is drawn: { $who } leaves.
game-fate-bot_drew = Time is up and the bot drew the lot: { $who } leaves.
game-fate-accepted = The lot falls on { $who }.
game-fate-usage = Usage: <code>/fate host</code> or <code>/fate bot</code>
game-fate-too_late = Who draws a shoot-out's lot is set before the first night or day; this game has begun.
game-deal-already = The cards are already dealt.
game-deal-first = Deal the cards first: /deal
game-deal-size = The composition has { $cards ->
        [one] { $cards } card
       *[other] { $cards } cards
    } but { $seats ->
        [one] { $seats } player sits
       *[other] { $seats } players sit
    } at the table. Fix it: /roles
game-deal-done =
    <b>Cards dealt</b> ({ $count ->
        [one] { $count } player
       *[other] { $count } players
    }). Everyone got their card in private (/myrole shows it again).
    Fingerprint of the deal (SHA-256): <code>{ $commitment }</code>
    After the game the bot reveals the key, so anyone can check that no card was swapped.
game-deal-ok = 🎴 The cards are dealt.
game-myrole-none = You are not in a game now.
game-myrole-sent = Your card was sent again.
game-friend-menu = “Let's be friends”: who should get the immunity?
game-friend-no_lobby = “Let's be friends” is ordered at a table, before the deal.
game-friend-nobody = Nobody at this table can get your “Let's be friends”.
game-friend-dropped = The “Let's be friends” order for { $who } no longer fits (the seating changed) and is ignored.
game-friend-ask_announce = Immunity for { $who }. May your name be announced if it saves them?
game-friend-announce_yes = Yes, name me
game-friend-announce_no = No, keep it secret
game-friend-announce_1 = the name may be announced
game-friend-announce_0 = do not announce the name
game-friend-chosen = Chosen.
game-friend-duplicate = You already ordered “Let's be friends” in this game.
game-friend-host_ask = “Let's be friends” order: { $orderer } → { $holder } ({ $announce }). Accept?
game-friend-accept = Accept
game-friend-decline = Decline
game-friend-ordered = The order was sent to the host.
game-friend-too_late = The cards are dealt: orders are closed.
game-friend-unknown = This order is not found.
game-friend-already = This order is already accepted.
game-friend-accepted = The host accepted your “Let's be friends” order for { $who }.
game-friend-declined = The host declined your “Let's be friends” order for { $who }.
game-friend-decided_yes = Order accepted: { $who } gets the immunity.
game-friend-decided_no = Order declined: { $who } gets no immunity.
game-night-no_targets = 🌙 Night { $night }. There is nobody for you to choose tonight.
game-night-start = 🌙 <b>Night { $night }.</b> The town falls asleep. Everyone who can act got buttons in private; the night lasts { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }.
game-night-start_late = 🌙 <b>Night { $night }.</b> The town falls asleep. Everyone who can act got buttons in private.
game-night-started = The night began.
game-night-prompt = 🌙 Night { $night }. { $action }
game-night-prompt_mafia =
    🌙 Night { $night }. { $action }
    Your team's picks now:
    { $picks }
    { $agree }
    You may change yours until you all agree or the time runs out.
game-night-prompt_mafia_locked =
    🌙 Night { $night }. Your team's pick is closed:
    { $picks }
    { $target }
game-night-pick_none = no pick yet
game-night-pick_none_locked = no pick
game-night-agree_chief = You have { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    } from the night's start to agree; if the team disagrees, the Mafia Chief's pick decides.
game-night-agree_you = You have { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    } from the night's start to agree; if the team disagrees, your pick decides: you are the Mafia Chief.
game-night-agree_none = You have { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    } from the night's start to agree; if the team disagrees, there is no common kill tonight.
game-night-target = The team's target: { $who }.
game-night-target_chief = The team's target: { $who } (the Mafia Chief's decision).
game-night-target_none = The team did not agree: no common kill tonight.
game-night-chosen = Your choice is in: { $who }.
game-night-mafia_locked = Your team's pick is already closed.
game-night-same = That is your pick already.
game-night-already = You already chose tonight.
game-night-accepted = Accepted: { $who }.
game-action-mafia_pick = Whom does your team kill tonight?
game-action-kill = Whom do you kill tonight?
game-action-block = Whom do you block tonight?
game-action-heal = Whom do you heal tonight?
game-action-challenge = Whom do you challenge tonight?
game-action-jail = Whom do you put in jail?
game-action-check = Whom do you check?
game-action-buyout = Which prisoner do you buy out?
game-day-start = ☀️ <b>Day { $day }.</b> Talk it over. The host starts the vote.
game-day-started = The day began.
game-vote-started = The vote began.
game-vote-prompt = 🗳 Your turn: whom do you vote for? ({ $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    })
game-vote-chosen = Your vote: { $who }.
game-vote-already = You already voted.
game-vote-not_your_turn = It is not your turn.
game-vote-accepted = Vote accepted: { $who }.
game-vote-missed = Your turn is over.
game-cancel-window = Verdict: { $who }. The verdict may still be cancelled for { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }.
game-cancel-window_late = Verdict: { $who }. The verdict may be cancelled while the window to cancel it is open.
game-cancel-ask = Verdict: { $who }. You may cancel the verdict (once per game). { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    } left.
game-cancel-button = Cancel the verdict
game-cancel-accepted = The verdict is cancelled.
game-cancel-done = You cancelled the verdict: { $who }.
game-cancel-done_other = The verdict is cancelled: { $who }.
game-cancel-expired = Time is up; the verdict stands: { $who }.
game-last_word-start = { $who }: last word, { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }.
game-last_word-start_late = { $who }: last word.
game-last_word-over = { $who }'s last word is over.
game-last_word-after = { $who }: last word after the ones under way.
game-speak-start = { $who } (in jail) gets the floor: { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }.
game-speak-start_late = { $who } (in jail) gets the floor.
game-speak-given = { $by } gives their time to { $who } (in jail): { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }.
game-speak-given_late = { $by } gives their time to { $who } (in jail).
game-speak-over = { $who }'s time is over.
game-speak-bad_giver = Only a living player who is not in jail (not the prisoner) can give their time.
game-speak-usage = Usage: <code>/speak SEAT [FROM]</code>
game-tech-ok = 💀 { $who }: technical death.
game-speak-ok = 🎤 { $who } has the floor.
game-tech-usage = Usage: <code>/tech SEAT</code>
game-stage-lobby = taking seats
game-stage-dealt = cards dealt
game-stage-night = night
game-stage-day = day, talk
game-stage-vote = vote
game-stage-fate = shoot-out: the host draws
game-stage-cancel = verdict given
game-stage-evening = after the vote
game-stage-over = game over
game-stage-aborted = aborted
game-status-text =
    <b>Game #{ $game }</b>: { $stage }{ $paused }
    Time left in this part: { $deadline }{ $voters }
    Alive: { $alive }
game-status-voters = Still to vote: { $seats }
game-status-paused = {" "}(paused)
game-status-deadline = { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }
game-status-night_host = Still to choose tonight: { $seats }
game-pause-already = The game is already paused.
game-pause-done = ⏸ The game is paused.
game-pause-not_paused = The game is not paused.
game-pause-resumed = ▶️ The game goes on.
game-extend-bad = Extend by 1…{ $max ->
        [one] { $max } second
       *[other] { $max } seconds
    }: <code>/extend 30</code>
game-extend-nothing = There is nothing to extend now.
game-extend-done = ⏱ Time extended by { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }.
game-end-points =
    <b>Points for the game</b>
    { $lines }
game-end-friendly = 🤝 <b>A friendly game</b>: no points were counted (none won, no fines), and the game counts toward nothing.
game-end-points_line = { $who }: { $total } ({ $detail })
game-end-points_line_none = { $who }: { $total }
game-end-seed =
    <b>The deal</b>
    { $lines }
    Key: <code>{ $seed }</code>
    Fingerprint: <code>{ $commitment }</code>
    { $check }
game-end-key =
    <b>The deal's key</b>: <code>{ $seed }</code>
    Fingerprint: <code>{ $commitment }</code>
    { $check }
game-end-check = The key and the cards by seat give this fingerprint: anyone can check that no card was swapped.
game-end-check_link = Check that no card was swapped: { $url }
game-summary-choices = Choices
game-summary-blocked = Blocked
game-summary-common_target = The Mafia's common pick
game-summary-saved = Saved
game-summary-died = Died
game-summary-checks = Checks
game-summary-verdict = Verdict
game-summary-cancelled_by = Verdict cancelled by
game-summary-by_doctor = healed by the Doctor
game-summary-by_sportsman = a shot cannot kill the Sportsman
game-summary-by_lucky = the Lucky's luck: every shot that night missed
game-summary-by_friend = the “Let's be friends” immunity
game-summary-no_verdict = No verdict.
game-summary-quiet = Nothing happened.
game-summary-mafia_yes = Mafia
game-summary-mafia_no = not Mafia
game-ev-open_immunities =
    <b>Open immunities</b> (first night and first day):
    { $lines }
game-ev-open_immunities_none = Nobody has an open immunity in this game.
game-ev-immunity_line = №{ $seat } { $name } — { $what }
game-ev-night_deaths = 🌅 Morning after night { $night }. Died tonight: { $seats }.
game-ev-night_deaths_none = 🌅 Morning after night { $night }. Nobody died tonight.
game-ev-night_death = 🌅 Morning after night { $night }. { $who } died tonight.
game-ev-friend_saved = “Let's be friends” saved { $who }.
game-ev-friend_saved_by = “Let's be friends” saved { $who }. Ordered by { $by }.
game-ev-jailed = In jail: { $seats }.
game-ev-released = Out of jail: { $seats }.
game-ev-released_one = { $who } is out of jail.
game-ev-check_mafia = Check: { $who } <b>is Mafia</b>.
game-ev-check_civilian = Check: { $who } <b>is not Mafia</b>.
game-ev-check_no_result = Your check brought no result tonight.
game-ev-night_summary =
    <b>The night (for the host only)</b>
    { $text }
game-ev-day_summary =
    <b>The day (for the host only)</b>
    { $text }
game-ev-mafia_team =
    <b>Your team</b>:
    { $lines }
game-ev-vote_tally =
    <b>Votes, day { $day }</b>
    { $lines }
game-ev-shootout = Shoot-out: { $tied }. The lot falls on { $who }.
game-ev-shootout_drawn = The lot falls on { $who }.
game-ev-vote_failed = The vote failed, nobody leaves. Tied: { $tied }.
game-ev-verdict_cancelled = The verdict on { $who } is cancelled.
game-ev-condemned_died = { $who } leaves the game by the vote.
game-ev-technical_death = { $who } was removed by the host (technical death).
game-ev-game_over =
    🏁 <b>Game over: { $winner }</b>
    { $lines }
game-winner-civilians = the civilians win
game-winner-mafia = the Mafia wins
game-winner-draw = a draw
game-immunity-newbie = newbie
game-immunity-first_day_killed = killed on the first day
game-team-mafia = Mafia
game-team-civilians = civilians
game-role-mafia = Mafia
game-role-mafia_chief = Mafia Chief
game-role-mafia_killer = Mafia Killer
game-role-marilyn = Marilyn
game-role-marilyn_sister = Marilyn's Sister
game-role-doctor = Doctor
game-role-maniac = Maniac
game-role-sportsman = Sportsman
game-role-judge = Judge
game-role-policeman = Policeman
game-role-lucky = Lucky
game-role-lawyer = Lawyer
game-role-lawyer_brother = Lawyer's Brother
game-role-oligarch = Oligarch
game-role-oligarch_brother = Oligarch's Brother
# short names a host types in /roles (several: separated by |)
game-role_alias-mafia_chief = Chief
game-role_alias-mafia_killer = Killer
game-role_alias-marilyn_sister = Sister|Marilyns Sister
game-role_alias-marilyn = Marylin|Merlin
game-role_alias-policeman = Cop|Sheriff|Commissioner
game-role_alias-doctor = Doc|Medic
game-role_alias-lawyer_brother = Lawyers Brother
game-role_alias-oligarch_brother = Oligarchs Brother
game-about-mafia = At night you pick the common kill together with the other Mafia.
game-about-mafia_chief = At night you pick the common kill with the Mafia; when they disagree, your pick decides.
game-about-mafia_killer = Every night you kill one player on your own, apart from the common pick.
game-about-marilyn = At night you block one player's action.
game-about-marilyn_sister = At night you block one player's action.
game-about-doctor = At night you heal one player (not yourself): no shot can kill them that night.
game-about-maniac = At night you kill one player.
game-about-sportsman = At night you challenge a player: if they are Mafia, you both die. Shots cannot kill you at night.
game-about-judge = At night you jail a player: they neither act nor vote.
game-about-policeman = At night you check whether a player is Mafia.
game-about-lucky = No night action; the first night anyone shoots at you, no shot kills you.
game-about-lawyer = Once per game you may cancel the day's verdict (not your own).
game-about-lawyer_brother = Once per game you may cancel the day's verdict (not your own).
game-about-oligarch = At night you may buy a player out of jail: a civilian walks free in the morning; if they are Mafia, you both stay in jail.
game-about-oligarch_brother = At night you may buy a player out of jail: a civilian walks free in the morning; if they are Mafia, you both stay in jail.
game-reason-survived_day = survived a day
game-reason-survived_night = survived a night
game-reason-survived = survived days and nights
game-reason-vote_for_mafia = vote against the Mafia
game-reason-vote_for_civilian = vote against a civilian
game-reason-lawyer_save = cancelled a civilian's verdict
game-reason-mafia_shot = Mafia's shot at a civilian
game-reason-killer_shot = Mafia Killer's shot at a civilian
game-reason-team_win = team win
game-reason-sole_survivor = sole survivor
game-rule-game_over = The game is over.
game-rule-phase_order = Nights and days alternate: another part of the game comes next.
game-rule-not_at_table = You are not at this table.
game-rule-actor_dead = You are out of the game and cannot act.
game-rule-actor_jailed = You are in jail and cannot act.
game-rule-no_night_action = Your card has no night action.
game-rule-target_unknown = Nobody sits there.
game-rule-target_self = You cannot choose yourself.
game-rule-target_dead = That player is already out.
game-rule-target_jailed = That player is already in jail.
game-rule-target_not_jailed = That player is not in jail.
game-rule-target_immune = That player has an open immunity: the host does not accept this choice. Choose again.
game-rule-voter_dead = You are out of the game and do not vote.
game-rule-voter_jailed = You are in jail and do not vote.
game-rule-not_a_lawyer = Only a player with that power may cancel a verdict.
game-rule-nothing_to_cancel = There is nothing to cancel: nobody was condemned.
game-rule-lawyer_dead = You are out and cannot cancel the verdict.
game-rule-lawyer_jailed = You are in jail and cannot cancel the verdict.
game-rule-lawyer_used = You already cancelled a verdict in this game.
game-rule-lawyer_self = You cannot cancel your own verdict.
game-rule-fate_not_tied = The draw picks among the shoot-out only.
game-rule-fate_without_shootout = There is no shoot-out.
game-rule-friend_self = You cannot order the immunity for yourself.
game-rule-friend_sex_unknown = Both players' sex must be known (/sex in private).
game-rule-friend_same_sex = “Let's be friends” goes to a player of the opposite sex only.
game-rule-friend_adjacent = You cannot order the immunity for your neighbour at the table.
game-rule-friend_spouse = You cannot order the immunity for your spouse.
game-rule-already_dead = That player is already out.
game-rule-table_size = A table has 6 to 24 players.
game-rule-duplicate_card = That card may appear only once.
game-rule-too_few_mafia = Mafia must be at least 30% of the table.
game-rule-no_civilians = The composition needs at least one civilian.
game-rule-bad_seat = Seats are positive numbers.
game-rule-duplicate_seat = Every seat appears once.

## commands

commands-seat = Move a player: /seat NICK NUMBER
commands-fate = Who draws a shoot-out: /fate host or bot
commands-speak = The floor for a prisoner: /speak SEAT [FROM]

## the vote that cannot be held (every player still in the game holds an open immunity)

game-ev-vote_impossible = 🗳 <b>Day { $day }: nobody can be voted out today.</b> Every player at the table holds an open immunity (newbie, or killed on the first day), and it holds through the first night and the first day. There is no vote today.
game-vote-impossible = Nobody can be voted out today: the day is over.
game-evening_no_vote = The host starts the next night.

## a host without a panel (its private chat refused the bot): the club's posts name the command

game-evening_typed = The vote is over. Next night: /night
game-evening_no_vote_typed = Next night: /night
game-day-start_typed = ☀️ <b>Day { $day }.</b> Talk it over. The host starts the vote: /vote
