## voids and appeals (bot/services/voids.py, bot/handlers/voids.py)

void-usage = Usage: <code>/void GAME REASON</code>, e.g. <code>/void 12 seats played by one person</code>. Takes a finished game back: its points are taken back and its fines given back, and it counts toward nothing.
void-unknown_game = There is no game #{ $game }.
void-not_finished = Game #{ $game } is not finished: only a finished game can be voided.
void-already = Game #{ $game } is voided already: { $reason } (by { $by }).
void-friendly = Game #{ $game } was a friendly game: it counted toward nothing, so there is nothing to take back.
void-too_late = Game #{ $game } ended more than { $days ->
        [one] { $days } day
       *[other] { $days } days
    } ago: only a network admin can void it now.
void-done = Game #{ $game } is voided: { $reason }.
    Points taken back: { $taken }.{ $short ->
        [0] {""}
       *[other] {" "}Could not be taken back (spent already): { $short }.
    }
    Players told: { $told }.
void-notice = ⚠️ Game #{ $game } ({ $club }) was voided: { $reason }, by { $by }. It counts toward nothing.
void-notice_taken = Its points were taken back: { SIGNED($points) }.
void-notice_given = Its fines were given back: { SIGNED($points) }.
void-notice_short = { $points ->
        [one] { $points } point
       *[other] { $points } points
    } could not be taken back (spent already).
void-page = Voided: { $reason }, by { $by }. Its points were taken back and it counts toward nothing.

appeal-usage = Usage: <code>/appeal GAME REASON</code>, e.g. <code>/appeal 12 seat 4 was played by the host</code>. Within { $hours ->
        [one] { $hours } hour
       *[other] { $hours } hours
    } of a game you played, asks the club's and the network's admins to review its result.
appeal-not_seated = You did not play in game #{ $game }: only its players can appeal.
appeal-too_late = Game #{ $game } ended more than { $hours ->
        [one] { $hours } hour
       *[other] { $hours } hours
    } ago: it is too late to appeal.
appeal-duplicate = You have appealed against game #{ $game } already.
appeal-unknown = There is no such appeal.
appeal-sent = Your appeal #{ $id } against game #{ $game } is sent to the admins. You will hear their decision.
appeal-notice = ⚖️ <b>Appeal #{ $id }</b> against game #{ $game } ({ $club }, { DATE($day, format: "%Y-%m-%d") })
    Player: { $player }
    Reason: { $reason }
appeal-button-void = Void the game
appeal-button-keep = Keep the result
appeal-outcome-kept = ✅ The result stands (decided by { $by }).
appeal-outcome-voided = ✖ The game is voided (by { $by }).
appeal-kept_notice = Your appeal against game #{ $game } was reviewed: the result stands (decided by { $by }).
appeal-kept_popup = Appeal #{ $id } closed: the result of game #{ $game } stands.
appeal-voided_popup = Game #{ $game } is voided; players told: { $told }.
appeal-closed_kept = Appeal #{ $id } is decided already: the result of game #{ $game } stands (decided by { $by }).
appeal-closed_voided = Appeal #{ $id } is decided already: game #{ $game } is voided (by { $by }).
appeal-void_reason = appeal #{ $id }: { $reason }

# a void's ledger rows (/balance, /stats, the web pages: views/texts.py)
game-reason-void = game voided
