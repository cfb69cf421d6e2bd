"""The demo's example pull request: the files of its base commit (a tiny package `shop`) and of
its head commit (discount codes, one test tagged `[SHOP-1#1]`, one failing test, one skipped test, a
cart test that passes without the change, and a method no test runs), and the pull request's body."""

from __future__ import annotations

# Fixed, so the example's commits (and the SHAs the comment shows) are the same on every machine.
# Git's reflog takes the committer date too, so the run's start is this moment: reports written
# now are fresh whatever the machine's clock says, as long as it is past 2024.
BASE_DATE = "2024-01-01T10:00:00+00:00"
HEAD_DATE = "2024-01-02T10:00:00+00:00"

PR_BODY = """\
Adds discount codes to the cart.

Scope:
- shop/
- tests/

## Acceptance criteria
- [x] a discount code lowers the cart's total
- [ ] an unknown discount code is refused with a message
"""

BASE_FILES: dict[str, str] = {
    "pyproject.toml": """\
[project]
name = "shop"
version = "0.1.0"
requires-python = ">=3.11"

[tool.pytest.ini_options]
testpaths = ["tests"]
""",
    ".gitignore": "build/\n__pycache__/\n",
    # coverage.py records which test ran each line (a dynamic context per test function).
    ".coveragerc": "[run]\nsource = shop\ndynamic_context = test_function\ndata_file = build/.coverage\n",
    "shop/__init__.py": '"""A tiny shop: the example repository of `evidence-gate demo`."""\n',
    "shop/cart.py": '''\
"""A shopping cart: items and their prices, in cents."""


class Cart:
    def __init__(self) -> None:
        self.items: dict[str, int] = {}

    def add(self, name: str, price: int) -> None:
        self.items[name] = price

    def total(self) -> int:
        return sum(self.items.values())
''',
    "tests/__init__.py": "",
    "tests/test_cart.py": """\
import unittest

from shop.cart import Cart


class CartTest(unittest.TestCase):
    def test_add_puts_the_item_in_the_cart(self) -> None:
        cart = Cart()
        cart.add("apple", 120)
        self.assertEqual(cart.items, {"apple": 120})

    def test_the_total_is_the_sum_of_the_items(self) -> None:
        cart = Cart()
        cart.add("apple", 120)
        cart.add("bread", 250)
        self.assertEqual(cart.total(), 370)

    def test_an_empty_cart_totals_zero(self) -> None:
        self.assertEqual(Cart().total(), 0)
""",
}

HEAD_FILES: dict[str, str] = {
    "shop/cart.py": '''\
"""A shopping cart: items and their prices, in cents, and discount codes."""

DISCOUNTS = {"SAVE5": 500}  # code -> cents off


class Cart:
    def __init__(self) -> None:
        self.items: dict[str, int] = {}
        self.discount = 0

    def add(self, name: str, price: int) -> None:
        self.items[name] = price

    def apply_discount(self, code: str) -> None:
        self.discount = DISCOUNTS[code]

    def remove(self, name: str) -> None:
        del self.items[name]

    def total(self) -> int:
        return sum(self.items.values()) - self.discount
''',
    # One more cart test, which passes with or without the discount code: the strength gate finds it still-green.
    "tests/test_cart.py": BASE_FILES["tests/test_cart.py"]
    + """
    def test_one_item_totals_its_price(self) -> None:
        cart = Cart()
        cart.add("apple", 120)
        self.assertEqual(cart.total(), 120)
""",
    "tests/test_discount.py": '''\
"""Discount codes. A test proves acceptance criterion n of story SHOP-1 when its name carries the
tag [SHOP-1#n]. A `def` cannot hold brackets, so the tagged test gets its name with setattr below:
unittest and pytest both name a test by the attribute it is stored under."""

import unittest

from shop.cart import Cart


class DiscountTest(unittest.TestCase):
    def lowers_the_total(self) -> None:
        cart = Cart()
        cart.add("apple", 1200)
        cart.apply_discount("SAVE5")
        self.assertEqual(cart.total(), 700)

    def test_a_discount_never_makes_the_total_negative(self) -> None:
        cart = Cart()
        cart.add("apple", 120)
        cart.apply_discount("SAVE5")
        self.assertEqual(cart.total(), 0)

    @unittest.skip("needs the payment provider's sandbox, which this machine cannot reach")
    def test_checkout_charges_the_discounted_total(self) -> None:
        raise AssertionError("not reached")


setattr(DiscountTest, "test_a_discount_code_lowers_the_total[SHOP-1#1]", DiscountTest.lowers_the_total)
''',
}
