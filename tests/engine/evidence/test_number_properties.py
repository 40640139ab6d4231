"""Property tests: any number rendered from an evidence value, in any supported unit and rounding, is accepted;
moved by one or more steps of its last written digit, it is rejected."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from hypothesis import example, given, settings
from hypothesis import strategies as st

from stockbench.evidence.numbers import NumberIndex, ground_numbers, index_evidence
from stockbench.evidence.store import canonical_json

FULL_WIDTH = str.maketrans("0123456789.,%+-", "０１２３４５６７８９．，％＋－")
SCALES = {"": 1, "万": 10**4, "亿": 10**8, "万亿": 10**12, " million": 10**6, " billion": 10**9, "bn": 10**9}
SUFFIXES = {
    "plain": ["元", "股", "点", ""],
    "pct": ["%", " percent"],
    "pp": ["个百分点", " percentage points", "pp", "個百分點"],
    "multiple": ["倍", "x"],
}


@dataclass(frozen=True)
class Rendering:
    """How a report writes one evidence value."""

    unit: str  # evidence unit: plain, pct, fraction, pp, multiple
    value: Decimal
    places: int
    scale: str
    suffix: str
    sign: str  # "-", "+", or "" (a fall written as a word: 下跌3.5%)
    separators: bool
    full_width: bool
    currency: str

    def magnitude(self) -> Decimal:
        shown = abs(self.value) * (100 if self.unit == "fraction" else 1) / SCALES[self.scale]
        return shown.quantize(Decimal(1).scaleb(-self.places), rounding=ROUND_HALF_UP)

    def text(self, magnitude: Decimal | None = None) -> str:
        digits = format(self.magnitude() if magnitude is None else magnitude, "," if self.separators else "")
        number = f"{self.currency}{self.sign}{digits}"
        if self.full_width:
            number = number.translate(FULL_WIDTH)
        word = "下跌" if self.sign == "" and self.value < 0 else "为"
        return f"该项{word}{number}{self.scale}{self.suffix}，见证据。"

    def step(self) -> Decimal:
        return Decimal(1).scaleb(-self.places)


def values(low: int, high: int, max_places: int) -> st.SearchStrategy[Decimal]:
    return st.builds(lambda i, p: Decimal(i).scaleb(-p), st.integers(low, high), st.integers(0, max_places))


@st.composite
def renderings(draw: st.DrawFn) -> Rendering:
    unit = draw(st.sampled_from(["plain", "pct", "fraction", "pp", "multiple"]))
    if unit == "plain":
        value = draw(values(-(10**15), 10**15, 4))
        scale = draw(st.sampled_from(list(SCALES)))
    else:
        value = draw(values(-(10**7), 10**7, 6)) if unit != "fraction" else draw(values(-(10**6), 10**6, 6))
        scale = ""
    text_unit = "pct" if unit == "fraction" else unit
    currency = draw(st.sampled_from(["", "", "¥", "RMB ", "HK$", "US$"])) if unit == "plain" else ""
    signs = ["-", ""] if value < 0 else ["", "+"]
    sign = "" if currency else draw(st.sampled_from(signs))  # a currency mark is written without a sign
    return Rendering(
        unit, value, draw(st.integers(0, 2)), scale, draw(st.sampled_from(SUFFIXES[text_unit])), sign,
        draw(st.booleans()), draw(st.booleans()), currency,
    )  # fmt: skip


def index_of(r: Rendering) -> NumberIndex:
    body = canonical_json({"kind": "calc", "value": format(r.value, "f"), "unit": r.unit})
    return index_evidence([("ev-prop", "application/json", body)])


@settings(max_examples=400, deadline=None)
@given(renderings())
@example(Rendering("plain", Decimal("1234.45"), 1, "", "元", "", True, False, ""))  # the half-up edge
@example(Rendering("plain", Decimal("-1234.55"), 1, "", "元", "-", True, False, ""))
@example(Rendering("plain", Decimal("123456"), 2, "万", "股", "", False, True, ""))
@example(Rendering("fraction", Decimal("0.62345"), 2, "", "%", "", False, False, ""))
@example(Rendering("pp", Decimal("-0.004"), 2, "", "个百分点", "-", False, False, ""))
def test_a_rendered_value_is_accepted(r: Rendering) -> None:
    assert ground_numbers(r.text(), index_of(r), "t") == [], r.text()


@settings(max_examples=400, deadline=None)
@given(renderings(), st.integers(1, 3), st.booleans())
@example(Rendering("plain", Decimal("1234.46"), 1, "", "元", "", True, False, ""), 1, True)  # 1,234.6 for 1234.46
@example(Rendering("plain", Decimal("1234.45"), 1, "", "元", "", True, False, ""), 1, False)  # 1,234.4 for 1234.45
@example(Rendering("plain", Decimal("123456"), 2, "亿", "元", "", False, False, ""), 1, True)
def test_a_value_moved_beyond_its_rounding_is_rejected(r: Rendering, steps: int, up: bool) -> None:
    shown = r.magnitude()
    moved = shown + steps * r.step() if up or shown < steps * r.step() else shown - steps * r.step()
    assert ground_numbers(r.text(moved), index_of(r), "t") != [], r.text(moved)


@settings(max_examples=200, deadline=None)
@given(renderings())
def test_a_slipped_multiplier_is_rejected(r: Rendering) -> None:
    if r.unit != "plain" or r.scale not in {"万", "亿"} or r.magnitude() == 0:
        return
    other = "亿" if r.scale == "万" else "万"
    slipped = Rendering(r.unit, r.value, r.places, other, r.suffix, r.sign, r.separators, r.full_width, r.currency)
    assert ground_numbers(slipped.text(r.magnitude()), index_of(r), "t") != []


@settings(max_examples=200, deadline=None)
@given(renderings())
def test_percent_and_points_never_stand_for_each_other(r: Rendering) -> None:
    if r.unit not in {"pct", "pp"}:
        return
    suffix = "个百分点" if r.unit == "pct" else "%"
    other = Rendering(r.unit, r.value, r.places, "", suffix, r.sign, r.separators, r.full_width, "")
    assert ground_numbers(other.text(), index_of(r), "t") != []


@settings(max_examples=200, deadline=None)
@given(renderings())
def test_a_signed_rendering_of_the_opposite_sign_is_rejected(r: Rendering) -> None:
    if r.currency or r.magnitude() == 0:
        return
    flipped = Rendering(r.unit, r.value, r.places, r.scale, r.suffix, "+" if r.value < 0 else "-", r.separators,
                        r.full_width, "")  # fmt: skip
    assert ground_numbers(flipped.text(), index_of(r), "t") != []
