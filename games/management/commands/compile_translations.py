"""Compile locale/*/LC_MESSAGES/*.po into .mo files with polib (pure Python).

Django's own ``compilemessages`` needs GNU gettext's ``msgfmt``, which a fresh machine
may not have; ``make run`` and ``make test`` call this instead. The .mo files are build
products and are not committed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile every .po file under LOCALE_PATHS into a .mo file (pure Python, polib)."

    def handle(self, *args: Any, **options: Any) -> None:
        compiled = 0
        for root in settings.LOCALE_PATHS:
            for po_path in sorted(Path(root).glob("*/LC_MESSAGES/*.po")):
                catalog = polib.pofile(str(po_path))
                missing = [e.msgid for e in catalog.untranslated_entries()]
                if missing:  # they fall back to English; tests/web/test_i18n.py fails on them
                    self.stderr.write(
                        f"{po_path}: {len(missing)} untranslated, e.g. {missing[0]!r}"
                    )
                mo_path = po_path.with_suffix(".mo")
                if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
                    continue
                catalog.save_as_mofile(str(mo_path))
                compiled += 1
                if options["verbosity"] > 1:
                    self.stdout.write(f"compiled {mo_path}")
        if options["verbosity"] > 0:
            self.stdout.write(f"{compiled} translation file(s) compiled")
