"""The protocol as a spreadsheet (openpyxl), the federations' working form: a sheet of the title
block, the standings and the signatures, and a sheet of the rounds' results."""

from __future__ import annotations

from io import BytesIO

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill
from openpyxl.worksheet.worksheet import Worksheet

from tournaments.protocol.document import Protocol
from tournaments.words import spreadsheet_safe

BOLD = Font(bold=True)
HEADING = PatternFill("solid", fgColor="E8E8E8")


def standings_header(protocol: Protocol) -> list[str]:
    """The standings table's column names, as the sheet has them."""
    header = [_("Place"), _("Player")]
    if protocol.personal:
        header += [_("Born"), _("Region"), _("Rank")]
    header += [_("Club")]
    if protocol.with_points:
        header += [_("Points")]
    header += [*protocol.tiebreak_names, _("Norm met"), _("Note")]
    return header


def protocol_xlsx(protocol: Protocol) -> bytes:
    """The protocol as the bytes of an .xlsx workbook."""
    book = Workbook()
    sheet = book.active
    assert isinstance(sheet, Worksheet)
    sheet.title = _("Protocol")[:31]
    sheet.append([protocol.heading])
    sheet["A1"].font = Font(bold=True, size=14)
    sheet.append([spreadsheet_safe(protocol.title)])
    sheet["A2"].font = Font(bold=True, size=12)
    sheet.append([protocol.sport])
    for fact in protocol.facts:
        sheet.append([fact.label, spreadsheet_safe(fact.value)])
        sheet.cell(sheet.max_row, 1).font = BOLD
    if protocol.norms_example:
        sheet.append([_("Rank norms: example table: the official one could not be found.")])
    sheet.append([])
    sheet.append(standings_header(protocol))
    for cell in sheet[sheet.max_row]:
        cell.font = BOLD
        cell.fill = HEADING
    for line in protocol.lines:
        row: list[object] = [line.place, spreadsheet_safe(line.name)]
        if protocol.personal:
            row += [int(line.birth_year) if line.birth_year else "", line.region, line.rank]
        row += [spreadsheet_safe(line.club)]
        if protocol.with_points:
            row += [line.points]
        row += [*line.tiebreaks]
        row += [line.norm, line.note]
        sheet.append(row)
    sheet.append([])
    for signature in protocol.signatures:
        sheet.append([signature.role, "", "_" * 24, spreadsheet_safe(signature.name)])
        sheet.cell(sheet.max_row, 1).font = BOLD
    sheet.column_dimensions["A"].width = 16
    sheet.column_dimensions["B"].width = 30
    for column in "CDEFGHIJKL":
        sheet.column_dimensions[column].width = 16

    rounds = book.create_sheet(_("Rounds")[:31])
    rounds.append([_("Round"), _("Home"), _("Score"), _("Away")])
    for cell in rounds[1]:
        cell.font = BOLD
        cell.fill = HEADING
    for item in protocol.rounds:
        for result in item.results:
            rounds.append(
                [
                    item.title,
                    spreadsheet_safe(result.home),
                    result.score,
                    spreadsheet_safe(result.away),
                ]
            )
    for column, width in zip("ABCD", (28, 30, 10, 30), strict=True):
        rounds.column_dimensions[column].width = width
    out = BytesIO()
    book.save(out)
    return out.getvalue()
