# The club's evenings: the announcement and its live list, sign-ups, the waitlist, reminders
# (bot/evenings/, views/evenings.py). A nickname stands in the nominative (after a colon or a
# number); no text needs a player's gender.

## the evening's time: "пт 05.12, 19:30"

evening-when = { $weekday } { DATE($at, format: "%d.%m") }, { DATE($at, format: "%H:%M") }
evening-weekday-0 = пн
evening-weekday-1 = вт
evening-weekday-2 = ср
evening-weekday-3 = чт
evening-weekday-4 = пт
evening-weekday-5 = сб
evening-weekday-6 = вс

## the post in the club chat

evening-post-head =
    🗓 <b>Игровой вечер: { $when }</b>
    Столов: { $tables }, мест за каждым: { $seats }, всего мест: { $capacity }.
evening-post-seated = <b>Записались</b> ({ $count } из { $capacity }):
evening-post-line = { $place }. { $name }
evening-post-empty = Пока никто не записался.
evening-post-waitlist = <b>Лист ожидания:</b>
evening-post-more = …и ещё в листе ожидания: { $more }
evening-post-open = Записаться и отменить запись — кнопками ниже или в личном чате с ботом: /evenings. Освободится место — его получит первый из листа ожидания, и бот ему напишет.
evening-post-started = Запись закрыта: вечер начался.
evening-post-cancelled = ❌ Вечер отменён.
evening-button-in = ✅ Записаться
evening-button-out = Отменить запись

## a place on the list

evening-place-seat = место { $place } из { $capacity }
evening-place-waiting = лист ожидания, №{ $place }

## answers to the buttons

evening-signed = Вы записаны: место { $place } из { $capacity }.
evening-signed_waiting = Мест нет: вы в листе ожидания под номером { $place }. Освободится место — бот напишет.
evening-already = Вы уже записаны: место { $place } из { $capacity }.
evening-already_waiting = Вы уже в листе ожидания под номером { $place }.
evening-left = Запись отменена.
evening-not_listed = Вас нет в списке этого вечера: отменять нечего.
evening-not_registered = Сначала запустите бота в личном чате: @{ $bot }
evening-blocked = Ваш аккаунт заблокирован администрацией: записаться нельзя.
evening-no_nick = Чтобы записаться, нужен ник: /nick НИК в личном чате с ботом.
evening-refused-started = Запись закрыта: вечер уже начался.
evening-refused-cancelled = Этот вечер отменён.
evening-refused-closed = Этот вечер уже прошёл.
evening-refused-unknown = Такого вечера нет.

## in private

evening-promoted = 🎉 Освободилось место, и оно ваше: игровой вечер в клубе «{ $club }», { $when }. Ваша запись: { $place }.
evening-cancelled = ❌ Игровой вечер в клубе «{ $club }» ({ $when }) отменён. Ваша запись ({ $place }) снята.
evening-remind-day =
    📅 Напоминание: игровой вечер в клубе «{ $club }» — { $when }. Ваша запись: { $place }.
    Не получается прийти — отмените запись: /evenings
evening-remind-soon =
    ⏰ Скоро начало: игровой вечер в клубе «{ $club }» — { $when }. Ваша запись: { $place }.
    Не получается прийти — отмените запись: /evenings
evening-mine-none = Вы не записаны ни на один вечер. Записаться можно кнопкой под объявлением вечера в чате клуба.
evening-mine-head = <b>Ваши вечера</b>
evening-mine-line = { $when } — «{ $club }»: { $place }
evening-mine-cancel = ✖ Отменить запись: { $when }
evening-profile-line = Вечер: { $when }, «{ $club }» — { $place }
evening-no_shows = Неявки (записались на вечер и не пришли): { $no_shows }

## the host: /evening

evening-usage = Объявить вечер: /evening ДД.ММ ЧЧ:ММ СТОЛОВ МЕСТ_ЗА_СТОЛОМ, например /evening 05.12 19:30 2 12. Или просто /evening — бот спросит кнопками. Отменить вечер: /evening cancel [ДД.ММ [ЧЧ:ММ]].
evening-bad_day = День «{ $text }» не распознан: нужно ДД.ММ, например 05.12.
evening-bad_time = Время «{ $text }» не распознано: нужно ЧЧ:ММ, например 19:30.
evening-bad_number = «{ $text }» — не целое число: столы и места за столом указываются целыми числами.
evening-zero = Нужен хотя бы один стол и хотя бы одно место за столом.
evening-too_many_tables = Столов может быть не больше { $most }.
evening-too_many_seats = Мест за одним столом может быть не больше { $most }.
evening-past = Это время уже прошло ({ $when }): объявить можно только будущий вечер.
evening-exists = На { $when } вечер уже объявлен.
evening-not_host = Объявить или отменить вечер может администратор чата или ведущий клуба.
evening-cancel-none = Отменять нечего: у клуба нет объявленных вечеров.
evening-cancel-which = Объявлено несколько вечеров: { $evenings }. Какой отменить? /evening cancel ДД.ММ ЧЧ:ММ
evening-cancel-done = Вечер { $when } отменён; всем записавшимся бот напишет.

## the host's dialog: /evening without words

evening-dialog-day = 🗓 Новый игровой вечер. Какой день?
evening-dialog-time = 🗓 { $day }. Во сколько начало?
evening-dialog-tables = 🗓 { $when }. Сколько столов?
evening-dialog-seats = 🗓 { $when }, столов: { $tables }. Сколько мест за каждым столом?
evening-dialog-day_button = { $weekday } { DATE($day, format: "%d.%m") }
evening-dialog-close = ✖ Закрыть
evening-dialog-closed = Вечер не объявлен.
evening-dialog-done = Вечер объявлен: { $when }.

## the night: a lobby invites the list (bot/game/rooms/guests.py)

evening-offer-head = 🗓 Сегодня вечер клуба: { $when }. Записались на места: { $signed }, в листе ожидания: { $waiting }; столов: { $tables }, мест за каждым: { $seats }.
evening-offer-pending = 📨 Приглашены и ещё не пришли: { $names }. Их места держим: каждый сядет, когда нажмёт «✅ Я здесь».
evening-offer-more = Пригласить записавшихся за ваш стол? Каждый получит сообщение в личном чате и сядет, когда подтвердит, что на месте; до тех пор место держим. Остальные садятся кнопкой «Играю».
evening-offer-done = Приглашать больше некого: записавшиеся уже приглашены или за столом.
evening-offer-button = 📨 Пригласить записавшихся ({ $count })
evening-invite-no_evening = Сегодня у клуба нет объявленного вечера: приглашать некого.
evening-invite-none = Приглашать некого: записавшиеся уже приглашены или за столом, или стол полон.
evening-invite-sent = Приглашения отправлены: { $invited }.
evening-invite-waiting = Новых приглашать некого. Приглашены и ещё не пришли: { $names }.
evening-invitation = 🎲 Стол { $number } (игра №{ $game }) в клубе «{ $club }» набирает игроков, а вы записаны на вечер ({ $when }). Пришли? Нажмите «✅ Я здесь» — бот посадит вас за стол.
evening-checkin-button = ✅ Я здесь
evening-checkin-done = ✅ Вы за столом { $number }: место №{ $seat } (игра №{ $game }).
evening-checkin-not_invited = Это приглашение не для вас или больше не действует.
evening-join-held = Свободные места за столом { $number } мы держим для тех, кто записался на вечер и уже приглашён (ещё не пришли: { $held }). Спросите ведущего.
commands-invite = Пригласить за стол записавшихся на вечер

## the command menus

commands-evening = Объявить игровой вечер с записью
commands-evenings = Мои вечера: место или лист ожидания
