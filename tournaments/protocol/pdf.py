"""The protocol as a PDF (fpdf2): A4 landscape, a title block, the standings table, the rounds'
results, the panel's signature lines, and the page numbers. The fonts (DejaVu Sans, with
Cyrillic) ship beside this module, with their licence."""

from __future__ import annotations

from pathlib import Path

from django.utils.translation import gettext as _
from fpdf import FPDF
from fpdf.enums import XPos, YPos
from fpdf.fonts import FontFace

from tournaments.protocol.document import Protocol

FONTS = Path(__file__).resolve().parent / "fonts"
FONT = "DejaVu"
#: A4 landscape's printable width with 12 mm margins, in mm.
MARGIN = 12
WIDTH = 297 - 2 * MARGIN
#: The space a fact's label keeps after it (the cell's margins and a gap), in mm.
LABEL_GAP = 3


class _Document(FPDF):
    def __init__(self, protocol: Protocol) -> None:
        super().__init__(orientation="L", unit="mm", format="A4")
        self.protocol = protocol
        self.add_font(FONT, "", str(FONTS / "DejaVuSans.ttf"))
        self.add_font(FONT, "B", str(FONTS / "DejaVuSans-Bold.ttf"))
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(auto=True, margin=16)
        self.set_title(f"{protocol.heading}: {protocol.title}")
        self.set_creator("nardy")
        self.alias_nb_pages()

    def footer(self) -> None:
        self.set_y(-11)
        self.set_font(FONT, "", 7.5)
        self.set_text_color(90, 90, 90)
        half = WIDTH / 2
        self.cell(half, 5, f"{self.protocol.title} · {self.protocol.footer}")
        self.cell(
            half, 5, _("Page %(page)s of %(pages)s") % {"page": self.page_no(), "pages": "{nb}"},
            align="R",
        )  # fmt: skip
        self.set_text_color(0, 0, 0)


def protocol_pdf(protocol: Protocol) -> bytes:
    """The protocol as PDF bytes."""
    pdf = _Document(protocol)
    pdf.add_page()
    _title_block(pdf, protocol)
    _standings(pdf, protocol)
    _rounds(pdf, protocol)
    _signatures(pdf, protocol)
    return bytes(pdf.output())


def _title_block(pdf: _Document, protocol: Protocol) -> None:
    pdf.set_font(FONT, "", 8)
    pdf.set_text_color(70, 70, 70)
    pdf.cell(WIDTH, 4, protocol.sport, align="C")
    pdf.ln(5)
    pdf.set_text_color(0, 0, 0)
    pdf.set_font(FONT, "B", 14)
    pdf.cell(WIDTH, 7, protocol.heading.upper(), align="C")
    pdf.ln(8)
    pdf.set_font(FONT, "B", 12)
    pdf.multi_cell(WIDTH, 6, protocol.title, align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)
    # The facts in two columns of label and value; a label as wide as the longest needs in the
    # language, a value too long for its column wraps (the row grows).
    pdf.set_font(FONT, "", 8.5)
    half = (len(protocol.facts) + 1) // 2
    columns = (protocol.facts[:half], protocol.facts[half:])
    label_w = fact_label_width(pdf, protocol)
    value_w = WIDTH / 2 - label_w - 2
    for row in range(half):
        top = pdf.get_y()
        bottom = top + 4.6
        for index, facts in enumerate(columns):
            if row >= len(facts):
                continue
            x = MARGIN + index * WIDTH / 2
            pdf.set_xy(x, top)
            pdf.set_font(FONT, "B", 8.5)
            pdf.multi_cell(label_w, 4.6, facts[row].label + ":")
            bottom = max(bottom, pdf.get_y())
            pdf.set_xy(x + label_w, top)
            pdf.set_font(FONT, "", 8.5)
            pdf.multi_cell(value_w, 4.6, facts[row].value)
            bottom = max(bottom, pdf.get_y())
        pdf.set_y(bottom)
    pdf.ln(2)
    if protocol.norms_example:
        _note(pdf, _("Rank norms: example table: the official one could not be found."))
    if not protocol.finished:
        _note(pdf, _("The event is not finished: its places are not final."))
    if not protocol.personal:
        _note(
            pdf,
            _(
                "Not an official event: birth years, regions and ranks are not published in "
                "its protocol."
            ),
        )


def fact_label_width(pdf: _Document, protocol: Protocol) -> float:
    """The width of the title block's label column: its longest label (bold, with its colon)
    in the protocol's language and a gap, at least 36 mm and at most half a column."""
    pdf.set_font(FONT, "B", 8.5)
    longest = max((pdf.get_string_width(fact.label + ":") for fact in protocol.facts), default=0)
    pdf.set_font(FONT, "", 8.5)
    return min(max(36.0, longest + LABEL_GAP), WIDTH / 4)


def _note(pdf: _Document, text: str) -> None:
    pdf.set_font(FONT, "", 7.5)
    pdf.set_text_color(110, 60, 0)
    pdf.multi_cell(WIDTH, 4, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_text_color(0, 0, 0)


def _heading(pdf: _Document, text: str, *, need: float = 14) -> None:
    """A section's heading, on a new page unless ``need`` mm of what follows fit under it."""
    if pdf.get_y() + 8 + need > 194:
        pdf.add_page()
    pdf.ln(2)
    pdf.set_font(FONT, "B", 10.5)
    pdf.cell(WIDTH, 6, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def _standings(pdf: _Document, protocol: Protocol) -> None:
    _heading(pdf, _("Final standings") if protocol.finished else _("Standings"))
    headings: list[tuple[str, float, str]] = [(_("Place"), 11, "C"), (_("Player"), 0, "L")]
    if protocol.personal:
        headings += [(_("Born"), 11, "C"), (_("Region"), 36, "L"), (_("Rank"), 15, "C")]
    headings += [(_("Club"), 32, "L")]
    if protocol.with_points:
        headings += [(_("Points"), 12, "C")]
    headings += [(name, 20, "C") for name in protocol.tiebreak_names]
    if protocol.with_norms:
        headings += [(_("Norm met"), 36, "L")]
    fixed = sum(width for _label, width, _align in headings)
    headings[1] = (headings[1][0], max(40.0, WIDTH - fixed), "L")
    font_size = 7.5 if len(protocol.tiebreak_names) < 5 else 7
    with pdf.table(
        col_widths=[width for _label, width, _align in headings],
        text_align=[align for _label, _width, align in headings],  # type: ignore[arg-type]
        line_height=4.4,
        first_row_as_headings=True,
        repeat_headings=1,
        headings_style=_headings_style(),
        borders_layout="SINGLE_TOP_LINE",
        width=WIDTH,
        padding=(0.8, 1),
    ) as table:
        pdf.set_font(FONT, "", font_size)
        row = table.row()
        for label, _width, _align in headings:
            row.cell(label)
        for line in protocol.lines:
            row = table.row()
            row.cell(str(line.place) if line.place else "")
            row.cell(line.name + (f" ({line.note})" if line.note else ""))
            if protocol.personal:
                row.cell(line.birth_year)
                row.cell(line.region)
                row.cell(line.rank)
            row.cell(line.club)
            if protocol.with_points:
                row.cell(line.points)
            for value in line.tiebreaks:
                row.cell(value)
            if protocol.with_norms:
                row.cell(_("norm met: %(rank)s") % {"rank": line.norm} if line.norm else "")


def _headings_style() -> FontFace:
    return FontFace(family=FONT, emphasis="BOLD", size_pt=6.8, fill_color=(232, 232, 232))


def _rounds(pdf: _Document, protocol: Protocol) -> None:
    if not protocol.rounds:
        return
    first = protocol.rounds[:3]
    _heading(pdf, _("Results of the rounds"), need=5 + 3.8 * max(len(r.results) for r in first))
    # Each round a block of three columns across the page: home – away, score.
    per_row = 3
    block = WIDTH / per_row
    pdf.set_font(FONT, "", 7.2)
    for start in range(0, len(protocol.rounds), per_row):
        group = protocol.rounds[start : start + per_row]
        height = 4.8 + 3.8 * max(len(item.results) for item in group)
        if pdf.get_y() + height > 194:
            pdf.add_page()
        top = pdf.get_y()
        for index, item in enumerate(group):
            x = MARGIN + index * block
            pdf.set_xy(x, top)
            pdf.set_font(FONT, "B", 8)
            pdf.cell(block - 4, 4.6, item.title, border="B")
            pdf.set_font(FONT, "", 7.2)
            y = top + 5
            for result in item.results:
                pdf.set_xy(x, y)
                home_style = "B" if result.winner == "home" else ""
                away_style = "B" if result.winner == "away" else ""
                name_w = (block - 4 - 14) / 2
                pdf.set_font(FONT, home_style, 7.2)
                pdf.cell(name_w, 3.8, _fit(pdf, result.home, name_w))
                pdf.set_font(FONT, "", 7.2)
                pdf.cell(14, 3.8, result.score or "–", align="C")
                pdf.set_font(FONT, away_style, 7.2)
                pdf.cell(name_w, 3.8, _fit(pdf, result.away, name_w))
                y += 3.8
        pdf.set_y(top + height + 2)
    pdf.set_font(FONT, "", 7)


def _fit(pdf: _Document, text: str, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` in the current font."""
    if pdf.get_string_width(text) <= width - 1:
        return text
    while text and pdf.get_string_width(text + "…") > width - 1:
        text = text[:-1]
    return text + "…"


def _signatures(pdf: _Document, protocol: Protocol) -> None:
    needed = 10 + 11 * len(protocol.signatures)
    if pdf.get_y() + needed > 194:
        pdf.add_page()
    pdf.ln(6)
    for signature in protocol.signatures:
        pdf.set_font(FONT, "B", 9)
        pdf.cell(60, 8, signature.role)
        pdf.set_font(FONT, "", 9)
        x, y = pdf.get_x(), pdf.get_y()
        pdf.line(x, y + 6.5, x + 70, y + 6.5)  # the signature's line
        pdf.cell(74, 8, "")
        pdf.cell(
            80, 8, f"/ {signature.name or ' ' * 30} /" if signature.name else "/" + " " * 40 + "/"
        )
        pdf.ln(10)
