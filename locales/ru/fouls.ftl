# Свисток ведущего: фолы, штрафы и их отмена (bot/game/rooms/fouls.py), ключи foul.*;
# настройки фолов клуба (bot/handlers/settings.py), ключи club.settings.foul*.

foul-reason-out_of_turn = разговор не в своё время
foul-reason-at_night = разговор ночью
foul-reason-gesture = жест
foul-reason-other = другое нарушение
foul-reason-noted = { $reason }: «{ $note }»
foul-fine-none = Предупреждение: баллы не списаны.
foul-fine-taken = Штраф: { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }.
foul-fine-short = Штраф клуба — { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }, но на балансе было меньше: списано { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }.
foul-fine-empty = Штраф клуба — { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }, но баллов на балансе нет: ничего не списано.
foul-done = 🟨 Фол { $number } в игре: { $who }, { $reason }. { $fine }
foul-player = 🟨 Ведущий записал вам фол в игре №{ $game }: { $reason }. { $fine }
    Ваших фолов в этой игре: { $count }.
foul-club = 🟨 Фол: { $who }, { $reason }. Фолов у игрока в этой игре: { $count }.
foul-offer-text = ⚠️ { $who }: фолов в этой игре — { $count }, предел клуба — { $limit }. Объявить игрока техническим трупом? Решаете вы.
foul-offer-tech = 💀 Технический труп: №{ $seat }
foul-offer-keep = ▶️ Играет дальше
foul-offer-taken = 💀 Технический труп: { $who }.
foul-offer-kept = ▶️ Играет дальше: { $who }.
foul-offer-undone = ↩️ Фол отменён, игра продолжается: { $who }.
foul-offer-gone = { $who }: решать нечего — игрок уже выбыл или фол отменён.
foul-offer-over = { $who }: игра окончена, решать больше нечего.
foul-offer-stale = { $who }: решать нечего — игрок уже выбыл или фол отменён.
foul-back = {" "}Возвращено: { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }.
foul-undone-done = ↩️ Фол { $number } отменён: { $who }.{ $back }
foul-undone-player = ↩️ Фол в игре №{ $game } ({ $reason }) отменён: он записан по ошибке.{ $back }
foul-undone-club = ↩️ Фол отменён: { $who }.
foul-usage = Использование: <code>/foul НОМЕР [причина]</code>; причина: ход, ночь, жест или своими словами.
foul-unfoul_usage = Использование: <code>/unfoul [НОМЕР_ФОЛА]</code> отменяет фол, записанный по ошибке (без номера — последний).
foul-already = Этот фол уже записан.
foul-none = В этой игре нет фолов, которые можно отменить.
foul-unknown = В этой игре нет фола { $number }.
foul-undone_already = Фол { $number } уже отменён.
foul-busy = Баланс игрока тем временем изменился; запишите фол ещё раз.
foul-no_game = Вы не ведёте открытую игру.
commands-foul = Фол: /foul НОМЕР [причина]
commands-unfoul = Отменить фол: /unfoul [НОМЕР_ФОЛА]

club-settings-foul_fine = 🟨 Штраф за фол: { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }.
club-settings-foul_warning = 🟨 Фол — предупреждение: баллы не списываются.
club-settings-foul_offer = 💀 С { $limit }-го фола игрока в игре ведущему предлагается технический труп.
club-settings-foul_no_offer = 💀 Технический труп за фолы не предлагается.
club-settings-foul_public_on = 📣 Чат клуба узнаёт о каждом фоле.
club-settings-foul_public_off = 📣 Чат клуба о фолах не узнаёт.
club-settings-foul_points_btn = 🟨 Штраф { $sign }1
club-settings-foul_limit_btn = 💀 Предел фолов { $sign }1
club-settings-foul_public_btn = 📣 Фолы в чате: вкл/выкл
club-settings-foul_range = Штраф — от 0 до { $top } баллов; технический труп предлагается с 1-го по { $limit }-й фол игрока (0 — никогда).

# панель ведущего (bot/game/panel/render.py)
panel-btn-foul = 🟨 Фол
panel-btn-unfoul = ↩️ Отменить фол
panel-mark-fouls = {" "}🟨{ $count }
panel-pick-foul = 🟨 Фол: кому?
panel-pick-foul_reason = 🟨 Фол — { $who }: за что?
panel-pick-unfoul = ↩️ Какой фол записан по ошибке?
panel-confirm-unfoul = ↩️ Отменить фол { $number } ({ $who })? Штраф вернётся.
panel-unfoul-line = { $number }. №{ $seat } { $name }: { $reason }

# мини-приложение (bot/miniapp/server.py)
miniapp-action-foul = 🟨 Фол
miniapp-action-unfoul = ↩️ Отменить фол
miniapp-pick-foul = Фол: нажмите на место игрока.
miniapp-pick-foul_reason = Фол — { $seat }: за что?
miniapp-pick-unfoul = Какой фол записан по ошибке?

# очки игры в её конце (bot/game/rooms/results.py): штрафы места за игру
game-reason-fines = штрафы

# строка штрафа в истории баллов (/balance, /stats, веб-страницы: views/texts.py), ключи game.reason.*
game-reason-foul_out_of_turn = фол: разговор не в своё время
game-reason-foul_at_night = фол: разговор ночью
game-reason-foul_gesture = фол: жест
game-reason-foul_other = фол: другое нарушение
game-reason-foul_undone = фол отменён (записан по ошибке)
game-reason-game_aborted = штраф возвращён: игра прервана

# статистика игрока (/stats: views/texts.py; страницы сайта: web/templates/)
stats-fouls = Фолы: { $fouls } (в среднем за игру: { NUMBER($rate, maximumFractionDigits: 2) })
web-player-fouls = Фолы
web-game-fouls = Фолы
web-game-foul_number = №
web-game-foul_who = Игрок
web-game-foul_reason = За что
web-game-foul_phase = Когда
web-game-foul_fine = Штраф
web-game-foul_undone = отменён (записан по ошибке)
