# The network's settings (/network, bot/handlers/settings.py): the caps on fines.
network-head = <b>The network's settings</b>
network-fine_cap = 🟨 One foul's fine: at most { $cap ->
        [one] { $cap } point
       *[other] { $cap } points
    } (a club's fine above it is lowered to it).
network-game_fine_cap = 🧮 A player's fines in one game: at most { $cap ->
        [one] { $cap } point
       *[other] { $cap } points
    }.
network-hint = ⌨️ Type <code>/network fine_cap N</code> or <code>/network game_fine_cap N</code> to set a cap at once.
network-btn-fine_cap = 🟨 { $sign }{ $increment }
network-btn-game_fine_cap = 🧮 { $sign }{ $increment }
network-saved = Saved.
network-usage = Usage: <code>/network</code> (the settings, with buttons), <code>/network fine_cap N</code> (one foul's fine at most), <code>/network game_fine_cap N</code> (a player's fines in one game at most); N a whole number of points.
network-range = A cap is 0 to { $top ->
        [one] { $top } point
       *[other] { $top } points
    }.
network-set-fine_cap = 🟨 One foul's fine is now at most { $cap ->
        [one] { $cap } point
       *[other] { $cap } points
    } (it was { $old }).
network-set-game_fine_cap = 🧮 A player's fines in one game are now at most { $cap ->
        [one] { $cap } point
       *[other] { $cap } points
    } (it was { $old }).
network-lowered = The fine of { $count ->
        [one] { $count } club was
       *[other] { $count } clubs were
    } lowered to { $cap }: { $clubs }.
network-club_lowered = 🟨 The network now fines at most { $cap ->
        [one] { $cap } point
       *[other] { $cap } points
    } for one foul: this club's fine went down from { $before } to { $cap }.
commands-network = The network's settings: the caps on fines
