# The achievements (standing/achievements.py): a short name and a one-line "how to earn" per
# entry of the catalogue (achievement-<id>-name / -text); the icon is the catalogue's. A
# levelled one shows its level as the count reached ("Doctor on call · 25").

achievement-games-name = Regular
achievement-games-text = Counted games played.
achievement-wins-name = Winner
achievement-wins-text = Games your team won, unless the host removed you.
achievement-civilian_wins-name = Town's defender
achievement-civilian_wins-text = Games won as a civilian.
achievement-mafia_wins-name = Family business
achievement-mafia_wins-text = Games won for the Mafia.
achievement-win_streak-name = Hot streak
achievement-win_streak-text = Games won in a row.
achievement-survivor-name = Survivor
achievement-survivor-text = Games won and still alive at the end.
achievement-lone_wolf-name = Lone wolf
achievement-lone_wolf-text = The last Mafia player standing, you won the game alone.
achievement-last_civilian-name = Last hope
achievement-last_civilian-text = The last civilian standing, you won the game for the town.
achievement-untouched_civilians-name = Not a scratch
achievement-untouched_civilians-text = The civilians won with every civilian alive.
achievement-untouched_mafia-name = Clean job
achievement-untouched_mafia-text = The Mafia won with every Mafia player alive.
achievement-first_night-name = First to fall
achievement-first_night-text = Killed on the first night.
achievement-bulletproof-name = Bulletproof
achievement-bulletproof-text = Shot at on three nights of one game, and lived.
achievement-fair_play-name = Fair play
achievement-fair_play-text = Games in a row without a foul.
achievement-shootout_survived-name = Standoff
achievement-shootout_survived-text = Tied on the vote with one or two others, and stayed in the game.
achievement-friend_saved-name = A friend indeed
achievement-friend_saved-text = Saved by the “Let's be friends” immunity.
achievement-vote_hunter-name = Sharp eye
achievement-vote_hunter-text = As a civilian, voted against the Mafia on three days of one game.
achievement-season_top-name = Season's top ten
achievement-season_top-text = Finished a season in the top ten of the network's season rating.
achievement-doctor_saves-name = Doctor on call
achievement-doctor_saves-text = As the Doctor, saved a player from a night's shot.
achievement-doctor_triple-name = Miracle worker
achievement-doctor_triple-text = As the Doctor, three saves in one game.
achievement-sportsman_duel-name = Knockout
achievement-sportsman_duel-text = As the Sportsman, took a Mafia player down with you.
achievement-sportsman_hero-name = Champion
achievement-sportsman_hero-text = As the Sportsman, took a Mafia player down and lived.
achievement-sportsman_tough-name = Iron man
achievement-sportsman_tough-text = As the Sportsman, shot at night and lived.
achievement-lucky_escape-name = Lucky star
achievement-lucky_escape-text = As the Lucky, shot at night and lived.
achievement-lucky_twice-name = Born lucky
achievement-lucky_twice-text = As the Lucky, lived through shots on two nights of one game.
achievement-lawyer_save-name = Not guilty
achievement-lawyer_save-text = As the Lawyer or the Lawyer's Brother, cancelled a civilian's verdict.
achievement-marilyn_mafia-name = Femme fatale
achievement-marilyn_mafia-text = As Marilyn or Marilyn's Sister, took a Mafia player's night action away.
achievement-marilyn_maniac-name = Tamed the Maniac
achievement-marilyn_maniac-text = As Marilyn or Marilyn's Sister, took the Maniac's night action away.
achievement-policeman_mafia-name = On the trail
achievement-policeman_mafia-text = As the Policeman, found a Mafia player.
achievement-policeman_three-name = Great detective
achievement-policeman_three-text = As the Policeman, found three Mafia players in one game.
achievement-judge_mafia-name = Behind bars
achievement-judge_mafia-text = As the Judge, jailed a Mafia player.
achievement-oligarch_bail-name = Bail
achievement-oligarch_bail-text = As the Oligarch or the Oligarch's Brother, bought a civilian out of jail.
achievement-maniac_mafia-name = Mafia hunter
achievement-maniac_mafia-text = As the Maniac, killed a Mafia player.
achievement-killer_kills-name = Hitman
achievement-killer_kills-text = As the Mafia Killer, killed a civilian with your own shot.
achievement-chief_wins-name = Godfather
achievement-chief_wins-text = Games won as the Mafia Chief.
achievement-policeman_hunted-name = No more sheriff
achievement-policeman_hunted-text = As the Mafia, killed the Policeman at night.

# how one shows: its icon and name, the level reached when it has more than one
achievement-title = { $icon } <b>{ $name }</b>
achievement-title-level = { $icon } <b>{ $name }</b> · { $level }
achievement-line = { $title } — { $text }
# a levelled one's way to its next level
achievement-progress = { $icon } { $name }: { $value } of { $next }
# /profile and the player's pages
achievement-profile-head = <b>Achievements</b> ({ $count } of { $total }):
achievement-profile-none = Achievements: none yet; they come with the counted games.
achievement-profile-next = On the way:
# the private message at a game's end
achievement-told = { $count ->
    [1] 🏅 A new achievement in game #{ $game }:
   *[other] 🏅 New achievements in game #{ $game }:
}
    { $lines }
# the club chat, for the rare ones (the club's setting)
achievement-club = { $count ->
    [1] 🏅 A rare achievement in game #{ $game }:
   *[other] 🏅 Rare achievements in game #{ $game }:
}
    { $lines }
achievement-club-line = { $who }: { $line }
# the private message once a season is over everywhere: to a player of the network's top ten
achievement-season_top-told = 🌟 Season { $season } is over, and you are in its top ten: number { $rank } in the network's season rating.
    { $title } — { $count ->
        [one] { $count } season in the top ten
       *[other] { $count } seasons in the top ten
    }.
# /settings: whether the club chat hears of the rare ones (a new club's: no)
club-settings-achievements_on = 🏅 The club chat hears of the rare achievements earned at its tables.
club-settings-achievements_off = 🏅 The club chat hears nothing of achievements.
club-settings-achievements_btn = 🏅 Rare achievements in the chat: on/off
# the player's page and Mini App
web-achievements-title = Achievements
web-achievements-none = No achievement yet: they come with the counted games.
web-achievements-next = On the way
