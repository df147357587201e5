"""A small Markdown-to-Word converter for the manuscript (python-docx; no pandoc needed).

Handles what the template uses: `#` headings, paragraphs, `- ` bullets, fenced code, pipe
tables, `![caption](image.png)` figures, and inline `**bold**`, `*italic*` and `` `code` ``.
The .docx is written with fixed dates and zip time stamps, so equal input gives equal bytes.
"""
from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

from .runs import MissingResultError

FIXED_TIME = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
INLINE = re.compile(r"(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*)")
IMAGE = re.compile(r"^!\[(?P<caption>[^\]]*)\]\((?P<path>[^)]+)\)\s*$")


def _inline(paragraph, text: str, bold: bool = False, italic: bool = False) -> None:
    for piece in INLINE.split(text):
        if not piece:
            continue
        if piece.startswith("**") and piece.endswith("**") and len(piece) > 4:
            _inline(paragraph, piece[2:-2], True, italic)
        elif piece.startswith("`") and piece.endswith("`") and len(piece) > 2:
            run = paragraph.add_run(piece[1:-1])
            run.font.name = "Courier New"
            run.bold, run.italic = bold, italic
        elif piece.startswith("*") and piece.endswith("*") and len(piece) > 2:
            _inline(paragraph, piece[1:-1], bold, True)
        else:
            run = paragraph.add_run(piece)
            run.bold, run.italic = bold, italic


def _cells(line: str) -> list[str]:
    body = line.strip()[1:-1] if line.strip().endswith("|") else line.strip()[1:]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)]


def _table(doc, lines: list[str]) -> None:
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Pt

    header, align, rows = _cells(lines[0]), _cells(lines[1]), [_cells(x) for x in lines[2:]]
    table = doc.add_table(rows=1 + len(rows), cols=len(header))
    table.style = "Table Grid"
    for r, values in enumerate([header, *rows]):
        for c, value in enumerate(values[:len(header)]):
            cell = table.cell(r, c)
            cell.text = ""
            p = cell.paragraphs[0]
            _inline(p, value, bold=(r == 0))
            if c < len(align) and align[c].endswith(":"):
                p.alignment = WD_ALIGN_PARAGRAPH.RIGHT
            for run in p.runs:
                run.font.size = Pt(8)
    doc.add_paragraph()


def _figure(doc, caption: str, path: Path) -> None:
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Inches

    if not path.is_file():
        raise MissingResultError(f"figure {path} named in the manuscript does not exist")
    from PIL import Image

    with Image.open(path) as im:
        width_in = im.size[0] / 200.0  # figures are saved at 200 dpi
    doc.add_picture(str(path), width=Inches(min(6.3, width_in)))
    doc.paragraphs[-1].alignment = WD_ALIGN_PARAGRAPH.CENTER
    _inline(doc.add_paragraph(), caption, italic=True)


def _stable_zip(data: bytes) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            dst.writestr(fixed, src.read(info.filename))
    return out.getvalue()


def markdown_to_docx(text: str, out: str | Path, base_dir: str | Path = ".",
                     find: Callable[[Path], Path] = Path) -> Path:
    """Convert the manuscript Markdown to .docx; image paths are relative to `base_dir`.

    `find` maps an image path to the file to embed (its staged copy while `report` runs).
    """
    from docx import Document
    from docx.shared import Pt

    from ..io import atomic_write_bytes

    doc = Document()
    doc.styles["Normal"].font.size = Pt(10.5)
    props = doc.core_properties
    props.author, props.last_modified_by, props.revision = "evidencechain", "evidencechain", 1
    props.created = props.modified = props.last_printed = FIXED_TIME.replace(tzinfo=None)
    lines = text.splitlines()
    i, para = 0, []

    def flush():
        if para:
            _inline(doc.add_paragraph(), " ".join(s.strip() for s in para))
            para.clear()

    while i < len(lines):
        line = lines[i]
        if not line.strip():
            flush()
        elif line.startswith("```"):
            flush()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                run = doc.add_paragraph().add_run(lines[j])
                run.font.name, run.font.size = "Courier New", Pt(9)
                j += 1
            i = j
        elif m := re.match(r"^(#{1,4})\s+(.*)$", line):
            flush()
            level = len(m.group(1))
            if level == 1 and not props.title:
                props.title = m.group(2)
            doc.add_heading(m.group(2), level=0 if level == 1 else level - 1)
        elif line.lstrip().startswith("|"):
            flush()
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            _table(doc, lines[i:j])
            i = j - 1
        elif m := IMAGE.match(line.strip()):
            flush()
            _figure(doc, m.group("caption"), find(Path(base_dir) / m.group("path")))
        elif re.match(r"^\s*[-*]\s+", line):
            flush()
            _inline(doc.add_paragraph(style="List Bullet"), re.sub(r"^\s*[-*]\s+", "", line))
        else:
            para.append(line)
        i += 1
    flush()
    buffer = io.BytesIO()
    doc.save(buffer)
    return atomic_write_bytes(out, _stable_zip(buffer.getvalue()))
