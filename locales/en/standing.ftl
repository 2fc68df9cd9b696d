# A player's standing: the skill rating (standing/rating.py), apart from points.

standing-rating = Skill rating: <b>{ NUMBER($ordinal, minimumFractionDigits: 1, maximumFractionDigits: 1) }</b> ({ $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $wins } won)
standing-side = { $side }: { NUMBER($ordinal, minimumFractionDigits: 1, maximumFractionDigits: 1) } ({ $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $wins } won)
standing-unrated = Skill rating: comes with the first finished game.
standing-provisional-note = The rating is provisional until { $games ->
        [one] { $games } game is
       *[other] { $games } games are
    } played.
standing-top-club = <b>{ $club }</b> — skill rating
standing-top-network = <b>Network</b> — skill rating
standing-top-row = { $rank }. { $nick } — { NUMBER($ordinal, minimumFractionDigits: 1, maximumFractionDigits: 1) } ({ $games ->
    [one] { $games } game
   *[other] { $games } games
})
standing-top-empty = Nobody has { $games ->
        [one] { $games } finished game
       *[other] { $games } finished games
    } yet: the rating comes after them.
standing-top-usage = <code>/top</code> — by points, <code>/top rating</code> — by skill rating, <code>/top role Doctor</code> — the best with a card.
standing-how = How the rating works: { $url }
web-standing-title = Skill rating
web-standing-none = No rating yet: it comes with the first finished game.
web-standing-overall = All games
web-standing-provisional = provisional
web-standing-value = { NUMBER($ordinal, minimumFractionDigits: 1, maximumFractionDigits: 1) }
web-standing-games = Games
web-standing-wins = Won
web-standing-side = Side
web-standing-how = How the rating works
web-standing-board = Network — skill rating
web-standing-about-1 = The skill rating says how well you play, apart from points. Points come with every game you sit in; the rating moves only with wins and losses, and by how surprising they were.
web-standing-about-2 = Every finished game is two teams: the civilians and the Mafia. From its players' ratings the rating reckons each team's chance before the game; after it the winners go up and the losers go down: more when the win was unexpected, less when it was expected. A draw costs the stronger team a little.
web-standing-about-3 = The Mafia are fewer than the civilians. The rating counts their missing seats at the table's average skill, so an even table is an even bet and nobody gains or loses for the card dealt.
web-standing-about-4 = The figure shown is one your true skill is very likely above: the estimate less three times its uncertainty. A new player starts at 0; every game makes the estimate surer, so the figure climbs while you keep playing as well. Until { $games ->
        [one] { $games } game
       *[other] { $games } games
    } it is marked provisional and stays off the leaderboard.
web-standing-about-5 = Beside the overall rating each player has one as a civilian and one as the Mafia, each over the games on that side.
web-standing-about-6 = Only finished games count, at their end: nothing moves while a game runs, and a voided game counts no more. Points never change the rating and the rating never changes points; fouls and survival do not enter it, only the result.
web-standing-about-7 = Why it is fair: it is a published method (OpenSkill, the Plackett–Luce model), the same for everyone, worked out from the games' logs, which every game's page shows and checks, in the order the games ended. Rebuilding every rating from scratch gives the very same numbers.

# A player's roles and rivals (views/standing.py): only counted games, each card beside how
# often it wins for everyone.
standing-roles-none = No counted game yet: the cards, the rivals and the kills come with the first.
standing-roles-cards = <b>By card</b> (counted games)
standing-roles-sides = <b>By side</b>
standing-roles-line = { $name }: { $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $wins } won ({ $rate }); everyone: { $everyone } of { $everyone_games ->
    [one] { $everyone_games } game
   *[other] { $everyone_games } games
}
standing-roles-few = , few games yet
standing-roles-note = “Everyone”: how often the card wins for all who got it, so a card that often wins is not mistaken for skill. <code>/top role</code> ranks from { $games ->
        [one] { $games } game
       *[other] { $games } games
    } with the card.
standing-roles-kill = { $role } — { $count }
standing-rivals-title = <b>The players you meet most</b>
standing-rivals-line = { $nick } — same side: { $together } (won { $won_together }), against: { $against } (you won { $won_against })
standing-rivals-kills = ; killed you at night: { $killed_you }, you killed them: { $you_killed }
standing-kills-by = <b>Killed at night by</b>: { $kills }
standing-kills-mine = <b>Your shots killed at night</b>: { $kills }
standing-top-role = <b>{ $card }</b> — the best by share of wins (from { $games ->
        [one] { $games } counted game
       *[other] { $games } counted games
    } with the card)
standing-top-role_row = { $rank }. { $nick } — { $rate } ({ $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $wins } won)
standing-top-role_empty = Nobody has { $games ->
        [one] { $games } counted game
       *[other] { $games } counted games
    } with the card “{ $card }” yet.
standing-top-role_everyone = For everyone the card “{ $card }” wins { $rate } of its games ({ $games } in all).
standing-top-role_unknown = No such card: { $name }. The cards: { $cards }.
standing-top-role_usage = Name the card: <code>/top role Doctor</code>, <code>/top role Policeman</code>. The cards: { $cards }.
web-roles-title = Cards and rivals
web-roles-graph = The skill rating after each counted game
web-roles-bars = The share of wins by card: the player's and everyone's
web-roles-card = Card
web-roles-rate = Won
web-roles-everyone = Everyone
web-roles-of = { $rate } of { $games }
web-roles-note = “Everyone”: how often the card wins for all who got it, so a card that often wins is not mistaken for skill. Under { $games ->
        [one] { $games } game
       *[other] { $games } games
    } with a card its share says little yet (greyed).
web-roles-rivals = The players met most
web-roles-player = Rival
web-roles-together = Same side
web-roles-won_together = Won together
web-roles-against = Against
web-roles-won_against = Won against
web-roles-killed_you = Killed the player at night
web-roles-you_killed = Killed by the player at night
standing-chart-mine = The player's share of wins
standing-chart-everyone = Everyone with the card
standing-chart-bar = { $card } ({ $games })
web-roles-killed_by = <b>Killed at night by</b>: { $kills }
web-roles-killed = <b>The player's shots killed at night</b>: { $kills }
