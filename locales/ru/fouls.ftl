# Свисток ведущего: нарушения (команда /foul), штрафы и их отмена (bot/game/rooms/fouls.py),
# ключи foul.*; настройки нарушений клуба (bot/handlers/settings.py), ключи club.settings.foul*.

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
    }, но на балансе было меньше: { $points ->
        [one] списан { $points } балл
        [few] списано { $points } балла
       *[many] списано { $points } баллов
    }.
foul-fine-capped = Штраф клуба — { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }, но за одну игру сеть списывает с игрока штрафами не больше { $cap ->
        [one] { $cap } балла
       *[other] { $cap } баллов
    }: { $points ->
        [one] списан { $points } балл.
        [few] списано { $points } балла.
       *[many] списано { $points } баллов.
    }
foul-fine-capped_out = Штраф клуба — { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }, но штрафы игрока в этой игре уже дошли до предела сети в { $cap ->
        [one] { $cap } балл
        [few] { $cap } балла
       *[many] { $cap } баллов
    }: ничего не списано.
foul-fine-reserved = Штраф клуба — { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }, но остальные баллы игрока — в резерве по его заявке на подарок: { $points ->
        [one] списан { $points } балл
        [few] списано { $points } балла
       *[many] списано { $points } баллов
    }.
foul-fine-reserved_out = Штраф клуба — { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }, но все баллы игрока — в резерве по его заявке на подарок: ничего не списано.
foul-fine-empty = Штраф клуба — { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }, но баллов на балансе нет: ничего не списано.
foul-done = 🟨 Нарушение №{ $number }: { $who }, { $reason }. { $fine }
foul-player = 🟨 Ведущий записал вам нарушение в игре №{ $game }: { $reason }. { $fine }
    Ваших нарушений в этой игре: { $count }.
foul-club = 🟨 Нарушение: { $who }, { $reason }. Нарушений у игрока в этой игре: { $count }.
foul-offer-text = ⚠️ { $who }: нарушений в этой игре — { $count }, предел клуба — { $limit }. Объявить игрока техническим трупом? Решаете вы.
foul-offer-tech = 💀 Технический труп: №{ $seat }
foul-offer-keep = ▶️ Играет дальше
foul-offer-taken = 💀 Технический труп: { $who }.
foul-offer-kept = ▶️ Играет дальше: { $who }.
foul-offer-undone = ↩️ Нарушение отменено: { $who } играет дальше.
foul-offer-gone = { $who }: решать нечего — игрок уже выбыл или нарушение отменено.
foul-offer-over = { $who }: игра окончена, решать больше нечего.
foul-offer-stale = { $who }: решать нечего — игрок уже выбыл или нарушение отменено.
foul-back = {" "}Возвращено: { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }.
foul-undone-done = ↩️ Нарушение №{ $number } отменено: { $who }.{ $back }
foul-undone-player = ↩️ Нарушение в игре №{ $game } ({ $reason }) отменено: оно записано по ошибке.{ $back }
foul-undone-club = ↩️ Нарушение отменено: { $who }.
foul-usage = Использование: <code>/foul МЕСТО [причина]</code>; причина: разговор, ночь, жест или своими словами.
foul-unfoul_usage = Использование: <code>/unfoul [НОМЕР_НАРУШЕНИЯ]</code> отменяет нарушение, записанное по ошибке (без номера — последнее).
foul-already = Это нарушение уже записано.
foul-none = В этой игре нет нарушений, которые можно отменить.
foul-unknown = В этой игре нет нарушения №{ $number }.
foul-undone_already = Нарушение №{ $number } уже отменено.
foul-busy = Баланс игрока тем временем изменился; запишите нарушение ещё раз.
foul-no_game = Вы не ведёте открытую игру.
commands-foul = Нарушение: /foul МЕСТО [причина]
commands-unfoul = Отменить нарушение: /unfoul [НОМЕР_НАРУШЕНИЯ]

club-settings-foul_fine = 🟨 Штраф за нарушение: { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }.
club-settings-foul_warning = 🟨 Нарушение — предупреждение: баллы не списываются.
club-settings-foul_offer = 💀 С { $limit }-го нарушения в игре бот предложит ведущему объявить игрока техническим трупом.
club-settings-foul_no_offer = 💀 Объявить игрока техническим трупом за нарушения бот не предлагает.
club-settings-foul_public_on = 📣 Чат клуба узнаёт о каждом нарушении.
club-settings-foul_public_off = 📣 Чат клуба о нарушениях не узнаёт.
club-settings-foul_points_btn = 🟨 Штраф { $sign }1
club-settings-foul_limit_btn = 💀 Предел нарушений { $sign }1
club-settings-foul_public_btn = 📣 Нарушения в чате: вкл/выкл
club-settings-foul_range = Предел нарушений — от 1 до { $limit } (0 — не предлагать объявить игрока техническим трупом).
club-settings-fine_cap = Штраф за нарушение — от 0 до { $cap ->
        [one] { $cap } балла
       *[other] { $cap } баллов
    }: больше сеть не разрешает.
club-settings-fine_hint = ⌨️ Штраф можно задать числом: <code>/settings fine N</code> (от 0 до { $cap }, предел сети).
club-settings-fine_usage = Использование: <code>/settings fine N</code>, N — целое число баллов (0 — только предупреждение).
club-settings-fine_set = 🟨 Штраф за нарушение теперь { $points ->
        [one] { $points } балл.
        [few] { $points } балла.
       *[many] { $points } баллов.
    }
club-settings-fine_off = 🟨 Штраф за нарушение теперь не списывается: только предупреждение.

# пульт ведущего (bot/game/panel/render.py)
panel-btn-foul = 🟨 Нарушение
panel-btn-unfoul = ↩️ Отменить нарушение
panel-mark-fouls = {" "}🟨{ $count }
panel-pick-foul = 🟨 Нарушение: кто нарушил?
panel-pick-foul_reason = 🟨 Нарушение — { $who }: за что?
panel-pick-unfoul = ↩️ Какое нарушение записано по ошибке?
panel-confirm-unfoul = ↩️ Отменить нарушение №{ $number } ({ $who })? Штраф вернётся.
panel-unfoul-line = { $number }. №{ $seat } { $name }: { $reason }

# мини-приложение (bot/miniapp/server.py)
miniapp-action-foul = 🟨 Нарушение
miniapp-action-unfoul = ↩️ Отменить нарушение
miniapp-pick-foul = Нарушение: нажмите на место игрока.
miniapp-pick-foul_reason = Нарушение — { $seat }: за что?
miniapp-pick-unfoul = Какое нарушение записано по ошибке?

# очки игры в её конце (bot/game/rooms/results.py): штрафы места за игру
game-reason-fines = штрафы

# строка штрафа в истории баллов (/balance, /stats, веб-страницы: views/texts.py), ключи game.reason.*
game-reason-foul_out_of_turn = нарушение: разговор не в своё время
game-reason-foul_at_night = нарушение: разговор ночью
game-reason-foul_gesture = нарушение: жест
game-reason-foul_other = нарушение: другое
game-reason-foul_undone = нарушение отменено (записано по ошибке)
game-reason-game_aborted = штраф возвращён: игра прервана

# статистика игрока (/stats: views/texts.py; страницы сайта: web/templates/)
stats-fouls = Нарушения: { $fouls } (в среднем за игру: { NUMBER($rate, maximumFractionDigits: 2) })
web-player-fouls = Нарушения
web-game-fouls = Нарушения
web-game-foul_number = №
web-game-foul_who = Игрок
web-game-foul_reason = За что
web-game-foul_phase = Когда
web-game-foul_fine = Штраф
web-game-foul_undone = отменено (записано по ошибке)
