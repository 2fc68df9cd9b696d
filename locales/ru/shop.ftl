## Магазин подарков: /gifts, карточка подарка, заявки, каталог администраторов (bot/handlers/shop*.py)

shop-help-private = /gifts — магазин подарков: обмен баллов на подарки сети
shop-help-admin =
    <b>Магазин подарков</b>
    /shop — каталог, с кнопками: добавить и изменить подарок
    /gift_requests — открытые заявки, с кнопками «Выдан» / «Отменить»
    /gift_add ЦЕНА ОСТАТОК НАЗВАНИЕ — новый подарок
    /gift_edit ID цена|остаток|название ЗНАЧЕНИЕ — изменить подарок
    /gift_photo ID — подписью к фото (или ответом на фото); /gift_photo ID off — убрать фото
    /gift_retire ID, /gift_restore ID — снять подарок с продажи, вернуть в продажу

commands-gifts = Магазин подарков
commands-shop = Каталог подарков (администраторы)
commands-gift_requests = Открытые заявки на подарки
commands-gift_add = Новый подарок: /gift_add ЦЕНА ОСТАТОК НАЗВАНИЕ
commands-gift_edit = Изменить подарок: /gift_edit ID цена|остаток|название ЗНАЧЕНИЕ
commands-gift_photo = Фото подарка: /gift_photo ID подписью к фото
commands-gift_retire = Снять подарок с продажи
commands-gift_restore = Вернуть подарок в продажу

shop-head = <b>🎁 Подарки</b>
shop-balance = Ваши баллы: { $points }; в резерве по заявкам: { $reserved }; доступно: { $available }.
shop-balance_reserved = В резерве по заявкам на подарки: { $reserved ->
        [one] { $reserved } балл
        [few] { $reserved } балла
       *[many] { $reserved } баллов
    }; доступно: { $available ->
        [one] { $available } балл
        [few] { $available } балла
       *[many] { $available } баллов
    }.
shop-empty = Подарков в продаже пока нет.
shop-line_yes = ✅ <b>{ $name }</b> — { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }, осталось: { $left }
shop-line_no = ▫️ <b>{ $name }</b> — { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }, осталось: { $left } ({ $why })
shop-why-no_admins = обмен закрыт
shop-no_admins = Обмен пока закрыт: у бота нет администраторов, которые выдают подарки. Баллы остаются вашими.
shop-why-retired = снят с продажи
shop-why-out_of_stock = закончился
shop-why-insufficient = не хватает: { $missing ->
        [one] { $missing } балл
        [few] { $missing } балла
       *[many] { $missing } баллов
    }
shop-mine_head = <b>Ваши заявки</b> (баллы в резерве, пока администратор не выдаст подарок):
shop-mine_line = №{ $id } { $gift } — { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }, заявка от { DATE($date, format: "%d.%m.%Y") }
shop-hint = Нажмите на подарок, чтобы посмотреть его и обменять баллы.
shop-card = 🎁 <b>{ $name }</b>
    Цена: { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }. Осталось: { $left }.
shop-card_asked = ⏳ Заявка №{ $id } отправлена: что дальше — в сообщении ниже.
shop-asked = Заявка №{ $id } на подарок «{ $gift }» отправлена. В резерве: { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }. Подарок выдаст администратор; если этого не случится за { $days ->
        [one] { $days } день
        [few] { $days } дня
       *[many] { $days } дней
    }, заявка закроется, а баллы снова станут доступны.
shop-asked_popup = Заявка отправлена: { $gift }
shop-kept = Обмен отменён, баллы на месте.
shop-withdrawn = Заявка №{ $id } на подарок «{ $gift }» отозвана. Снова доступно: { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }.
shop-withdrawn_popup = Заявка №{ $id } отозвана
shop-handed_popup = Заявка №{ $id } («{ $gift }»): подарок выдан. Баланс игрока: { $balance }.
shop-cancelled_popup = Заявка №{ $id } («{ $gift }») отменена.

shop-button-gift = 🎁 { $name } · { $price }
shop-button-exchange = Обменять на { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }
shop-button-confirm = ✅ Да, обменять { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }
shop-button-keep = ✖ Нет
shop-button-withdraw = ↩ Отозвать заявку №{ $id } ({ $gift })
shop-button-hand = ✅ Выдан
shop-button-cancel = ✖ Отменить

shop-notice = 🎁 <b>Заявка на подарок №{ $id }</b>
    Игрок: <b>{ $player }</b>
    Подарок: «{ $gift }», { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    } (в резерве; баланс: { $balance })
    Заявка от { DATE($date, format: "%d.%m.%Y") }. Выдайте подарок и нажмите «Выдан».
shop-closed_notice = 🎁 Заявка на подарок №{ $id }. Игрок: <b>{ $player }</b>, подарок: «{ $gift }», { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }. { $outcome }
shop-outcome-handed_over = ✅ Выдан (администратор: { $by }).
shop-outcome-cancelled = ✖ Отменена (администратор: { $by }).
shop-outcome-withdrawn = ↩ Отозвана игроком.
shop-outcome-expired = ⌛ Не выдан вовремя: заявка закрыта.
shop-outcome-burned = 🔥 Закрыта: баллы игрока сгорели.
shop-told-handed_over = 🎁 Подарок выдан: «{ $gift }» (заявка №{ $id }). Списано: { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }. Приятного пользования!
shop-told-cancelled = Заявка №{ $id } на подарок «{ $gift }» отменена администратором. Снова доступно: { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }.
shop-told-expired = Подарок «{ $gift }» по заявке №{ $id } не выдали за { $days ->
        [one] { $days } день
        [few] { $days } дня
       *[many] { $days } дней
    }, заявка закрыта. Снова доступно: { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }. Новая заявка — в /gifts.
shop-told-burned = Заявка №{ $id } (подарок: «{ $gift }») закрыта: ваши баллы сгорели, и те, что были в резерве, тоже.
shop-request_line = №{ $id } <b>{ $player }</b> — «{ $gift }», { $points ->
        [one] { $points } балл
        [few] { $points } балла
       *[many] { $points } баллов
    }, заявка от { DATE($date, format: "%d.%m.%Y") }
shop-requests_head = <b>Открытые заявки на подарки: { $count }</b>
shop-requests_none = Открытых заявок на подарки нет.
shop-expiry_warning = Из них в резерве по открытым заявкам на подарки: { $reserved ->
        [one] { $reserved } балл
        [few] { $reserved } балла
       *[many] { $reserved } баллов
    }. Если подарки не выдадут до этого дня, заявки тоже закроются.
shop-export_caption = Заявки на подарки на { DATE($date, format: "%d.%m.%Y") }
shop-take_reserved = Игрок <b>{ $nick }</b>: на балансе { $balance ->
        [one] { $balance } балл
        [few] { $balance } балла
       *[many] { $balance } баллов
    }, из них в резерве по заявкам на подарки: { $reserved ->
        [one] { $reserved } балл
        [few] { $reserved } балла
       *[many] { $reserved } баллов
    }. Сейчас можно списать не больше { $available }, а не { $points }. Сначала отмените заявку (/gift_requests).

shop-admin_only = Это могут только администраторы сети.
shop-refused-unknown_gift = Такого подарка нет.
shop-refused-retired = Подарок «{ $gift }» снят с продажи.
shop-refused-out_of_stock = Подарок «{ $gift }» закончился: последний уже забрали.
shop-refused-price_changed = Цена подарка «{ $gift }» теперь { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }: откройте /gifts заново.
shop-refused-insufficient = Не хватает баллов: подарок «{ $gift }» стоит { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }, а { $available ->
        [one] доступен { $available } балл
        [few] доступно { $available } балла
       *[many] доступно { $available } баллов
    }.
shop-refused-blocked = Ваш аккаунт заблокирован администрацией.
shop-refused-duplicate = Вы уже оформили эту заявку: №{ $id }.
shop-refused-unknown_request = Такой заявки нет.
shop-refused-closed_handed_over = По заявке №{ $id } подарок уже выдан.
shop-refused-closed_cancelled = Заявка №{ $id } уже отменена.
shop-refused-closed_withdrawn = Заявка №{ $id } уже отозвана.
shop-refused-closed_expired = Заявка №{ $id } уже закрыта: подарок не выдали вовремя.
shop-refused-closed_burned = Заявка №{ $id } уже закрыта: баллы игрока сгорели.
shop-refused-not_yours = Это не ваша заявка.
shop-refused-name_taken = Подарок №{ $id } уже называется «{ $gift }» (если он снят с продажи: /gift_restore { $id }).
shop-refused-below_reserved = На подарок «{ $gift }» есть открытые заявки (в резерве: { $reserved }): остаток не может быть меньше. Сначала отмените заявку.
shop-refused-handover_insufficient = Заявке №{ $id } { $points ->
        [one] нужен { $points } балл
        [few] нужно { $points } балла
       *[many] нужно { $points } баллов
    }, а на балансе игрока сейчас только { $balance }: отмените её.
shop-refused-stale = Эта кнопка устарела: откройте /gifts (или /shop) заново.

shop-admin-head = <b>🛍 Каталог подарков</b>: { $count ->
        [one] { $count } подарок
        [few] { $count } подарка
       *[many] { $count } подарков
    }, открытых заявок: { $requests } (/gift_requests)
shop-admin-empty = Подарков пока нет: нажмите «Новый подарок».
shop-admin-line = №{ $id } <b>{ $name }</b> — { $price ->
        [one] { $price } балл
        [few] { $price } балла
       *[many] { $price } баллов
    }, на складе: { $stock }, в резерве: { $reserved }
shop-admin-retired_mark = {" "}· снят с продажи
shop-admin-photo_yes = Фото: есть.
shop-admin-photo_no = Фото: нет.
shop-admin-page_hint = Изменить подарок можно кнопками ниже или командой: <code>/gift_edit { $id } цена 30</code>, <code>/gift_edit { $id } остаток 10</code>.
shop-admin-button-gift = №{ $id } { $name }
shop-admin-button-new = ➕ Новый подарок
shop-admin-button-name = ✏ Название
shop-admin-button-price = 💰 Цена
shop-admin-button-stock = 📦 Остаток
shop-admin-button-photo = 🖼 Фото
shop-admin-button-nophoto = Убрать фото
shop-admin-button-retire = Снять с продажи
shop-admin-button-restore = Вернуть в продажу
shop-admin-button-list = « Каталог
shop-admin-button-skip = Без фото
shop-admin-button-stop = Отмена
shop-admin-ask-name = Подарок «{ $gift }»: пришлите новое название.
shop-admin-ask-price = Подарок «{ $gift }»: пришлите новую цену в баллах (сейчас: { $current }). Открытые заявки сохранят свою цену.
shop-admin-ask-stock = Подарок «{ $gift }»: пришлите, сколько штук на складе (сейчас: { $current }; в резерве по заявкам: { $reserved }).
shop-admin-ask-photo = Подарок «{ $gift }»: пришлите фото.
shop-admin-ask-new_name = Пришлите название нового подарка.
shop-admin-ask-new_price = Подарок «{ $gift }»: пришлите цену в баллах.
shop-admin-ask-new_stock = Подарок «{ $gift }»: пришлите, сколько штук на складе.
shop-admin-ask-new_photo = Подарок «{ $gift }»: пришлите фото или нажмите «Без фото».
shop-admin-added = Подарок в продаже: «{ $gift }».
shop-admin-changed = Подарок изменён: «{ $gift }».
shop-admin-retired = Подарок снят с продажи: «{ $gift }» (открытые заявки на него остаются).
shop-admin-restored = Подарок снова в продаже: «{ $gift }».
shop-admin-stopped = Хорошо, отменено.
shop-admin-photo_hint = Чтобы это фото стало фото подарка, ответьте на него командой <code>/gift_photo ID</code> (ID — в /shop).
shop-admin-nothing_asked = Бот ничего не спрашивал: откройте /shop.
shop-admin-want_photo = Пришлите фото (или нажмите «Отмена»).
shop-admin-want_text = Пришлите значение текстом (или нажмите «Отмена»).
shop-admin-bad_name = Название подарка: не длиннее { $max ->
        [one] { $max } символа
        [few] { $max } символов
       *[many] { $max } символов
    }.
shop-admin-bad_price = Цена: целое число баллов от 1 до { $max }.
shop-admin-bad_stock = Остаток: целое число от 0 до { $max }.
shop-admin-add_usage = Использование: <code>/gift_add ЦЕНА ОСТАТОК НАЗВАНИЕ</code>, например <code>/gift_add 30 5 Кружка с логотипом клуба</code>
shop-admin-edit_usage = Использование: <code>/gift_edit ID цена|остаток|название ЗНАЧЕНИЕ</code>, например <code>/gift_edit 3 цена 40</code>
shop-admin-photo_usage = Использование: пришлите фото с подписью <code>/gift_photo ID</code> (или ответьте так на фото); <code>/gift_photo ID off</code> убирает фото.
shop-admin-retire_usage = Использование: <code>/gift_retire ID</code>
shop-admin-restore_usage = Использование: <code>/gift_restore ID</code>

# клуб, где забирают подарок (bot/handlers/shop.py, views/shop_texts.py)
shop-collect_at = 📍 Забрать в клубе: { $club }.
shop-button-collect = 📍 Клуб: { $club } (сменить)
shop-button-club = 📍 { $club }
shop-refused-club = Этот клуб не выдаёт подарки: выберите другой (откройте /gifts заново).
shop-refused-no_clubs = Пока ни один клуб сети не выдаёт подарки.
