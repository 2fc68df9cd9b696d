"""Routers, one module each; every call builds fresh routers (one app, one set).

Handlers stay thin: each reads the update and calls a service or the game layer. ``menus.py``
holds the command menus these routers answer.

May import: everything in ``bot`` but the application (``bot.app``, ``bot.wiring``).
"""

from __future__ import annotations

from aiogram import Router

from bot.handlers import (
    admin,
    club,
    evenings,
    fallback,
    moving,
    private,
    settings,
    shop,
    shop_admin,
    stats,
    voids,
    wrong_chat,
)


def get_routers(*, admin_middleware: object | None = None) -> list[Router]:
    """Stats (/stats, /top in every chat), private, evenings, admin, the gift shop, voids and
    appeals, the network's settings, club, then fallback last (it answers commands nobody
    else took).

    ``admin_middleware`` becomes the admin router's inner message middleware (AdminOnly).
    """
    admin_router = admin.create_router()
    moving_router = moving.create_router()
    if admin_middleware is not None:
        admin_router.message.middleware(admin_middleware)  # type: ignore[arg-type]
        moving_router.message.middleware(admin_middleware)  # type: ignore[arg-type]
    return [
        stats.create_router(),
        private.create_router(),
        evenings.create_router(),
        admin_router,
        moving_router,
        shop.create_router(),
        shop_admin.create_router(admin_middleware),
        voids.create_router(),
        settings.create_network_router(),
        settings.create_staff_router(),
        club.create_router(),
        settings.create_router(),
        wrong_chat.create_router(),
        fallback.create_router(),
    ]
