# Пульт ведущего в личном чате (bot/game/panel/live.py), ключи panel.* (id panel-*).

panel-head = 🎩 <b>Игра №{ $game }</b>: { $stage }{ $paused }
panel-paused = {" "}— ⏸ пауза
panel-night = ночь { $number }
panel-day = день { $number }
panel-deadline = ⏱ осталось { $time }
panel-left = ⏸ после паузы останется { $seconds ->
        [one] { $seconds } секунда
        [few] { $seconds } секунды
       *[other] { $seconds } секунд
    }
panel-seats = <b>Места</b>
panel-mark-dead = {" "}💀
panel-mark-jailed = {" "}⛓ в тюрьме
panel-mark-offline = {" "}📵
panel-mark-blocked = {" "}🚫 бот заблокирован
panel-mark-acted = {" "}✅
panel-mark-voter = {" "}👈 голосует
panel-choices = <b>Ходы этой ночи</b>
panel-votes = <b>Голоса</b>
panel-tied = 🎲 Перестрелка: вытяните жребий кнопкой ниже.
panel-composition = 🃏 Состав: { $roles }
panel-fate-host = 🎲 Перестрелки: жребий тянете вы
panel-fate-bot = 🎲 Перестрелки: жребий тянет бот
panel-pick-tech = 💀 Технический труп: чьё место?
panel-confirm-tech = 💀 Объявить техническим трупом: { $who }? Стол узнает об этом сразу.
panel-confirm-end = ⛔ Прервать игру сейчас? Баллов за неё никто не получит, все карты откроются.
panel-pick-seat = 🪑 Кого пересадить?
panel-pick-place = 🪑 Куда сядет { $who }?
panel-pick-unseat = 🚪 Кого убрать из-за стола?
panel-confirm-unseat = 🚪 Убрать из-за стола: { $who }?
panel-pick-preset = 🃏 Какой состав?
panel-pick-speak = 🎤 Кому из заключённых дать слово?
panel-pick-giver = 🎤 Слово получает { $who }. Чьё время отдать?
panel-over = Игра окончена. Пульт закрыт.
panel-btn-night = 🌙 Начать ночь
panel-btn-day = ☀️ Объявить день
panel-btn-vote = 🗳 Начать голосование
panel-btn-pause = ⏸ Пауза
panel-btn-resume = ▶️ Продолжить
panel-btn-extend = ⏱ +{ $seconds } с
panel-btn-tech = 💀 Технический труп
panel-btn-end = ⛔ Прервать игру
panel-btn-deal = 🎴 Раздать карты
panel-btn-seat = 🪑 Пересадить игрока
panel-btn-unseat = 🚪 Убрать игрока
panel-btn-speak = 🎤 Слово заключённому
panel-btn-floor = 🎤 Слово от ведущего
panel-btn-preset = 🃏 Состав
panel-btn-fate-host = 🎲 Жребий тяну я
panel-btn-fate-bot = 🎲 Жребий тянет бот
panel-btn-yes = ✔️ Да
panel-btn-back = ↩️ Назад
panel-btn-open = 🌐 Открыть стол
panel-preset-club = Состав клуба ({ $count ->
        [one] { $count } карта
        [few] { $count } карты
       *[many] { $count } карт
    })
panel-preset-default = Стандартный состав ({ $count ->
        [one] { $count } карта
        [few] { $count } карты
       *[many] { $count } карт
    })
panel-shown = Пульт — ниже.
panel-none = Вы не ведёте открытую игру.
panel-moved = Пульт перенесён ниже.

# Окно короче фазы, рядом с её собственными часами (panel.deadline).
panel-window-mafia = 🤝 Мафия договаривается: { $time }
panel-window-turn = 👈 время на голос: { $time }
