"""The texts users see, one folder per language (``ru/``, ``en/``), one Fluent file per area.

A package only so that a plain (non-editable) install ships the catalogs beside the code.

May import: nothing (``views.i18n`` reads these files).
"""
