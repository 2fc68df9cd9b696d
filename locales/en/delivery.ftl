# The club chat's live vote board and prompts whose moment is over (bot/game/rooms/day.py, night.py).
game-vote-board =
    🗳 <b>Vote, day { $day }.</b> Each turn is { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }; whoever does not vote votes for themselves.
    { $lines }{ $done }
game-vote-board_voted = { $voter } → { $who }
game-vote-board_now = ⏳ { $who } votes now ({ $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    })
game-vote-board_now_late = ⏳ { $who } votes now
game-vote-board_waiting = { $who }
game-vote-board_timeout_self = { $who } → did not vote in time: a vote for themselves
game-vote-board_timeout_none = { $who } → did not vote in time; with an immunity, no vote
game-vote-board_done = ✅ Everyone has voted.
game-night-closed = 🌙 The night is over; this choice is closed.
game-prompt_closed = This moment is over; the buttons are closed.
