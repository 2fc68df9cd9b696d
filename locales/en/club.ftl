# Club texts: moving a club in (/import, /link), honest nicknames, /settings, menus, limits.

## Limits on repeats
club-help-limits = <b>Limits:</b> one open proposal per pair (/spouse again says so); { $complaints ->
        [one] { $complaints } complaint
       *[other] { $complaints } complaints
    } a day per player; in a club chat /status is answered there and never messages the host.
club-complain-limit = You have already filed { $limit ->
        [one] { $limit } complaint
       *[other] { $limit } complaints
    } today, the daily limit. Try again tomorrow.
spouse-already_proposed = You have already proposed to this player. Wait for their answer.

## Honest nicknames
nick-lookalike = The nickname <b>{ $nick }</b> looks like <b>{ $existing }</b>, which is taken. Choose one that looks different.
nick-reserved = The nickname <b>{ $nick }</b> belongs to an imported club record. Send <code>/nick { $nick }</code> to claim it; an admin confirms.
nick-stacked_marks = Too many accents on one letter. A letter may carry at most two different marks.
club-lookalikes-none = No nicknames look alike.
club-lookalikes-head = <b>Nicknames that look alike</b> (groups: { $count }):
club-lookalikes-group = • { $names }

## Moving a club in
club-import-usage = Send the club's CSV as a document with the caption <code>/import</code> (a dry run: nothing is written) or <code>/import apply</code>; or reply to the file with <code>/import apply</code>. Columns: nickname, points, games_played, last_game_date (YYYY-MM-DD), telegram_id, username — the same as /export writes.
club-import-too_big = The file is too big (at most { $size } KB).
club-import-not_utf8 = The file is not UTF-8 text. Save the CSV as UTF-8 and send it again.
club-import-file_empty = The file is empty: the first line must name the columns.
club-import-file_missing_column = Required column missing: { $value }. Nothing was imported.
club-import-file_unknown_column = Unknown column: { $value }. Allowed: nickname, points, games_played, last_game_date, telegram_id, username. Nothing was imported.
club-import-file_too_many_rows = Too many rows (at most { $value }). Nothing was imported.
club-import-dry = <b>Dry run, nothing written.</b> Would add { $added ->
        [one] { $added } player
       *[other] { $added } players
    } (linked to their Telegram accounts at once: { $linked }); unchanged: { $unchanged }; refused rows: { $refused }.
club-import-done = <b>Imported</b> { $added ->
        [one] { $added } player
       *[other] { $added } players
    } (linked to their Telegram accounts: { $linked }); unchanged: { $unchanged }; refused rows: { $refused }.
club-import-row = line { $line }: { $why }
club-import-more = … and { $count ->
        [one] { $count } more row
       *[other] { $count } more rows
    }
club-import-apply_hint = To write it, reply to the file with <code>/import apply</code>.
club-import-why_bad_number = not a whole number ≥ 0 ({ $value })
club-import-why_bad_date = bad date ({ $value }): YYYY-MM-DD or DD.MM.YYYY, not in the future
club-import-why_missing_date = points or games without a last game date ({ $value })
club-import-why_bad_username = bad Telegram username ({ $value })
club-import-why_duplicate = duplicate of an earlier line: { $value }
club-import-why_lookalike = looks like the nickname { $value }
club-import-why_taken = the nickname is taken by a player ({ $value })
club-import-why_changed = { $value } was imported before with other data (a re-import changes nothing)
club-import-why_tg_other_nick = this Telegram account already has the nickname { $value }
club-import-why_nickname_too_short = nickname too short ({ $value })
club-import-why_nickname_too_long = nickname too long ({ $value })
club-import-why_nickname_bad_chars = nickname with characters that are not allowed ({ $value })
club-import-why_nickname_stacked_marks = nickname with stacked accents ({ $value })
club-import-why_nickname_no_letter_or_digit = nickname without a letter or digit ({ $value })
club-link-usage = Usage: <code>/link NICK</code> — confirms the claim of an imported nickname.
club-link-not_found = No imported record waits for the nickname <b>{ $nick }</b>.
club-link-no_claim = Nobody has claimed <b>{ $nick }</b> yet (the player sends <code>/nick { $nick }</code>).
club-link-done = <b>{ $nick }</b> is linked; { $points ->
        [one] { $points } point
       *[other] { $points } points
    } credited.
club-link-notice = Your club record <b>{ $nick }</b> is yours now: { $points ->
        [one] { $points } point
       *[other] { $points } points
    }, games played: { $games }.
club-link-expired_notice = Your club record <b>{ $nick }</b> is yours now (games played: { $games }). Its points had expired: the last game was more than two months ago.
club-nick-claimed = <b>{ $nick }</b> is an imported club record. An admin has been asked to confirm that it is yours.
club-nick-claim_admin = { $name } (id { $id }) claims the imported nickname <b>{ $nick }</b>. Confirm with <code>/link { $nick }</code>.

## Club settings
club-settings-denied = Only the chat's administrators and the club's hosts can change the settings.
club-settings-usage = <code>/settings</code> shows the settings; reply to a member's message with <code>/settings host add</code> to make them a host.
club-settings-head = <b>Settings of { $title }</b>
    Language: { $language }
club-settings-timer = { $name }: { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }
club-settings-t_night = Night
club-settings-t_mafia_agree = Mafia agreement
club-settings-t_vote_turn = Vote turn
club-settings-t_last_word = Last word
club-settings-s_night = 🌙
club-settings-s_mafia_agree = 🤝
club-settings-s_vote_turn = 🗳
club-settings-s_last_word = 💬
club-settings-step = { $name } { $sign }{ $step }
club-settings-fate_host = Shoot-outs: the host draws.
club-settings-fate_bot = Shoot-outs: the bot draws.
club-settings-fate_toggle = 🎲 Switch who draws shoot-outs
club-settings-hosts = 🎙 Hosts ({ $count })
club-settings-presets = 🃏 Compositions ({ $count })
club-settings-back = ← Back
club-settings-hosts_head = <b>Hosts</b> (listed: { $count })
club-settings-host_line = • { $name } (id { $id })
club-settings-hosts_hint = Add one: reply to their message with <code>/settings host add</code>. The chat's administrators host anyway.
club-settings-remove = ✖ { $name }
club-settings-presets_head = <b>Saved compositions</b> (listed: { $count })
club-settings-preset_line = { $size }: { $roles }
club-settings-remove_preset = ✖ { $size }
club-settings-saved = Saved.
club-settings-timer_range = A timer stays between { $min ->
        [one] { $min } second
       *[other] { $min } seconds
    } and { $max ->
        [one] { $max } second
       *[other] { $max } seconds
    }.
club-settings-no_such_host = This host is no longer on the list.
club-settings-no_such_preset = This composition is no longer saved.
club-settings-host_added = { $name } is now a host of this club.

## Menus and the wrong chat
club-where-private = This command works in the private chat with the bot: { $link }
club-where-group = This command works in the club's group chat.
club-bad_seat = There is no seat { $seat }: the table has { $count ->
        [one] { $count } player
       *[other] { $count } players
    }.
commands-settings = Club settings (admins)
commands-redeem = Redeem points: /redeem NICK POINTS REASON
commands-adjust = Adjust points: /adjust NICK ±POINTS REASON
commands-block = Block an account
commands-unblock = Unblock an account
commands-export = Balances as CSV
commands-import = Import a club's players from CSV
commands-link = Confirm an imported nickname's claim
commands-lookalikes = Nicknames that look alike
commands-complaints = Complaints
club-import-why_already_here = this Telegram account already plays here as { $value } (importing it again would count its points twice)
