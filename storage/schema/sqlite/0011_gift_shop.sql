-- the gift shop: the catalogue, the players' requests, the admins' dialog
-- The network's gifts. stock: items on the shelf; the open requests reserve some of them.
CREATE TABLE gifts (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL,
    name_key   TEXT    NOT NULL UNIQUE,
    price      INTEGER NOT NULL CHECK (price > 0),
    stock      INTEGER NOT NULL CHECK (stock >= 0),
    photo      TEXT,
    active     INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at TEXT    NOT NULL
);
-- A request reserves its points (the price when asked) and one item while it is open; handed
-- over, its 'redeem' row is ledger_id. card: the message its Exchange was pressed on (a double
-- press is one request). announced_at / told_at: the admins told of it / its end told.
CREATE TABLE gift_requests (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    gift_id      INTEGER NOT NULL REFERENCES gifts(id),
    tg_id        INTEGER NOT NULL REFERENCES players(tg_id),
    points       INTEGER NOT NULL CHECK (points > 0),
    card         INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'handed_over', 'cancelled', 'withdrawn', 'expired',
                                   'burned')),
    created_at   TEXT    NOT NULL,
    closed_at    TEXT,
    closed_by    INTEGER,
    ledger_id    INTEGER REFERENCES ledger(id),
    announced_at TEXT,
    told_at      TEXT,
    UNIQUE (tg_id, card),
    CHECK ((status = 'open') = (closed_at IS NULL)),
    CHECK ((status = 'handed_over') = (ledger_id IS NOT NULL))
);
CREATE INDEX gift_requests_open_player ON gift_requests(tg_id) WHERE status = 'open';
CREATE INDEX gift_requests_open_gift ON gift_requests(gift_id) WHERE status = 'open';
CREATE INDEX gift_requests_untold ON gift_requests(id)
    WHERE announced_at IS NULL OR (status <> 'open' AND told_at IS NULL);
-- An admin's catalogue dialog waiting for a typed value (one per admin).
CREATE TABLE gift_drafts (
    admin_id INTEGER PRIMARY KEY,
    field    TEXT    NOT NULL CHECK (field IN ('name', 'price', 'stock', 'photo')),
    gift_id  INTEGER REFERENCES gifts(id),
    name     TEXT,
    price    INTEGER,
    at       TEXT    NOT NULL
);
