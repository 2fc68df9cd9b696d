# Живое табло голосования в чате клуба и кнопки, чьё время прошло (bot/game/rooms/day.py, night.py).
game-vote-board =
    🗳 <b>Голосование, день { $day }.</b> На голос — { $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    }; кто не успел — голос уходит в себя.
    { $lines }{ $done }
game-vote-board_voted = { $voter } → { $who }
game-vote-board_now = ⏳ Голосует { $who } ({ $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    })
game-vote-board_now_late = ⏳ Голосует { $who }
game-vote-board_waiting = { $who }
game-vote-board_timeout_self = { $who } → время вышло, голос уходит в себя
game-vote-board_timeout_none = { $who } → время вышло; голос не засчитан (в себя нельзя: иммунитет)
game-vote-board_done = ✅ Все проголосовали.
game-night-closed = 🌙 Ночь окончена; выбор закрыт.
game-prompt_closed = Время вышло; кнопки закрыты.
