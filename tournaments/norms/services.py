"""Writes of the rank norms: the table replaced whole, as staff load it from a file."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import InvalidInput
from tournaments.norms.models import EventStatus, RankNorm

#: The columns of the file: the model's fields (``status`` by its code); ``status_name`` and
#: ``status_order`` make or rename the status when given.
COLUMNS = ("status", "discipline", "gender", "rank", "participants_from", "places_up_to", "example")
OPTIONAL = ("status_name", "status_order")
TRUE = ("1", "true", "yes", "y", "on")


def norms_from_csv(text: str) -> list[dict[str, str]]:
    """The rows of a CSV file of norms, as dicts of the columns (its header names them)."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    missing = [name for name in COLUMNS if name not in (reader.fieldnames or ())]
    if missing:
        raise InvalidInput(
            _("The file has no column %(columns)s.") % {"columns": ", ".join(missing)}
        )
    return [{key: (value or "").strip() for key, value in row.items() if key} for row in reader]


def rank_norms_replace(*, rows: Iterable[Mapping[str, str]]) -> int:
    """Replace the whole table of norms with ``rows`` (the file's columns, ``COLUMNS``), in one
    transaction: a row that is not valid refuses the file, naming its line, and nothing
    changes. A status the file names by a code not yet known is made when the row gives its
    ``status_name``. Returns the number of norms. Run by the site's operators (the command
    ``load_rank_norms``), not from a page: there is no user to ask the policy about."""
    with transaction.atomic():
        statuses = {status.code: status for status in EventStatus.objects.all()}
        norms = []
        for line, row in enumerate(rows, start=2):  # line 1 is the header
            code = row.get("status", "")
            name = row.get("status_name", "")
            status = statuses.get(code)
            if name:
                order = int(row.get("status_order") or 0)
                if status is None:
                    status = EventStatus(code=code, name=name, order=order)
                else:
                    status.name, status.order = name, order
                _valid(status, line, exclude=["id"] if status.pk is None else None)
                status.save()
                statuses[code] = status
            if status is None:
                raise InvalidInput(
                    _(
                        "Line %(line)s: no event status has the code %(code)s "
                        "(give its status_name)."
                    )
                    % {"line": line, "code": code}
                )
            try:
                norm = RankNorm(
                    status=status,
                    discipline=row.get("discipline", ""),
                    gender=row.get("gender", ""),
                    rank=row.get("rank", ""),
                    participants_from=int(row.get("participants_from") or 0),
                    places_up_to=int(row.get("places_up_to") or 0),
                    example=row.get("example", "").lower() in TRUE,
                )
            except ValueError as error:
                raise InvalidInput(
                    _("Line %(line)s: %(error)s") % {"line": line, "error": error}
                ) from error
            _valid(norm, line)
            norms.append(norm)
        RankNorm.objects.all().delete()
        RankNorm.objects.bulk_create(norms)
    return len(norms)


def _valid(record: EventStatus | RankNorm, line: int, exclude: list[str] | None = None) -> None:
    try:
        record.full_clean(exclude=exclude)
    except ValidationError as error:
        said = "; ".join(
            f"{field}: {' '.join(messages)}" for field, messages in error.message_dict.items()
        )
        raise InvalidInput(_("Line %(line)s: %(error)s") % {"line": line, "error": said}) from error
