# The seasons (standing/seasons.py, views/seasons.py): /season, the season's page, the picture
# at a season's end, and the network's own seasons' dates (/network season).
season-quarter = Q{ $quarter } { $year }
season-head = 🗓 <b>Season { $name }</b> ({ $dates })
season-mine = You this season: rating <b>{ NUMBER($ordinal, minimumFractionDigits: 1, maximumFractionDigits: 1) }</b> ({ $games ->
    [one] { $games } game
   *[other] { $games } games
}), { $points ->
    [one] { $points } point
   *[other] { $points } points
}.
season-mine-none = You have no counted game in this season yet.
season-scope-network = Network
season-scope-club = { $club }
season-board-rating = <b>{ $scope }</b> — the season's rating
season-board-points = <b>{ $scope }</b> — the season's points
season-row-rating = { $rank }. { $nick } — { NUMBER($ordinal, minimumFractionDigits: 1, maximumFractionDigits: 1) } ({ $games ->
    [one] { $games } game
   *[other] { $games } games
})
season-row-points = { $rank }. { $nick } — { $points }
season-empty-rating = Nobody has { $games ->
        [one] { $games } game
       *[other] { $games } games
    } in this season yet: the board comes after them.
season-empty-points = No counted game in this season yet.
season-fame-head = 🏆 <b>Hall of Fame — season { $name }</b> (the first { $places ->
        [one] { $places } place
       *[other] { $places } places
    })
season-fame-none = 🏆 The Hall of Fame fills when the first season with games ends.
season-link = Seasons and the Hall of Fame: { $url }
season-post-caption = 🏁 Season { $name } is over. Here is { $club }'s season board; the Hall of Fame: /season
season-picture-title = { $club } — season { $name } ({ $dates })
season-picture-rating = The season's rating
season-picture-points = The season's points
season-picture-none = Nobody
network-season-head = <b>Seasons</b>: calendar quarters, except the network's own seasons:
network-season-line = { $dates } { $name }
network-season-none = No season of the network's own dates.
network-season-usage = <code>/network season START END [NAME]</code> sets a season of your own dates (days as 2026-06-01 or 01.06.2026), e.g. <code>/network season 2026-06-01 2026-08-31 Summer cup</code>; it takes its days out of the quarters. <code>/network season delete START</code> deletes one that has not started yet.
network-season-set = 🗓 Season set: { $dates } { $name }.
network-season-refused-past = A season may start on { $earliest } at the earliest: the games played already keep their season.
network-season-refused-order = A season ends on or after the day it starts.
network-season-refused-long = A season lasts a year at most.
network-season-refused-name = A season's name is { $most ->
        [one] { $most } character
       *[other] { $most } characters
    } at most.
network-season-refused-overlap = That overlaps a season the network already set.
network-season-deleted =
    🗑 Season deleted: { $dates } { $name }
    Its days are in the calendar quarters again.
network-season-delete-unknown = No season of the network's own dates starts on { $start }: <code>/network season</code> lists them.
network-season-delete-started =
    This season stays: { $dates } { $name }
    Only a season that starts on { $earliest } or later can be deleted: a game anywhere may have ended in an earlier one, and the games played keep their season.
web-season-head = Season { $name }
web-season-title = Seasons
web-season-current = Season under way
web-season-fame = Hall of Fame
web-season-fame-none = The Hall of Fame fills when the first season with games ends.
web-season-rating = The season's rating
web-season-points = The season's points
web-season-network = Network
web-season-empty = Nobody yet.
web-season-about = A season is a calendar quarter unless the network sets its own dates. A game counts in the season of the day it ended on, on its club's calendar. Each season has a rating of its own games alone (everybody starts at 0; on the board from 10 games) and a board by the points earned in it. A season moves no points.
club-settings-season_on = 🏁 When a season ends, the club chat gets its board as a picture.
club-settings-season_off = 🏁 The club chat gets no picture when a season ends.
club-settings-season_btn = 🏁 The season's picture in the chat: on/off
