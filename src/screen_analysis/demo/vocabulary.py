"""Words the generator draws from: products, screens, feedback sentences, failure reasons."""

from __future__ import annotations

from typing import NamedTuple

CRITERIA: tuple[str, ...] = (
    "visual_clarity",
    "visual_hierarchy",
    "color_contrast",
    "cta_effectiveness",
    "brand_consistency",
)

# Weights applied when a project has no default_criteria.
PLATFORM_WEIGHTS: dict[str, float] = {
    "visual_clarity": 0.25,
    "visual_hierarchy": 0.2,
    "color_contrast": 0.2,
    "cta_effectiveness": 0.2,
    "brand_consistency": 0.15,
}


class ProductTemplate(NamedTuple):
    """A product that can become a project, with the screens its analyses show."""

    name: str
    description: str | None
    slug: str
    screens: tuple[str, ...]


PRODUCTS: tuple[ProductTemplate, ...] = (
    ProductTemplate(
        "Acme Checkout",
        "Web checkout flow for the Acme store, desktop and mobile.",
        "acme-checkout",
        (
            "Checkout — payment step",
            "Checkout — shipping address",
            "Cart summary",
            "Order confirmation",
            "Promo code sheet",
        ),
    ),
    ProductTemplate(
        "Lumen Banking",
        "Retail banking app: accounts, transfers and cards.",
        "lumen-banking",
        (
            "Onboarding / welcome",
            "Accounts overview",
            "Transfer — review",
            "Card controls",
            "Statement detail",
        ),
    ),
    ProductTemplate(
        "Harbor Travel",
        None,
        "harbor-travel",
        (
            "Search results — flights",
            "Trip detail",
            "Seat map",
            "Booking — passenger details",
            "Home / hero",
        ),
    ),
    ProductTemplate(
        "Pixel Notes",
        "Note taking for teams; redesign of the editor and sharing.",
        "pixel-notes",
        (
            "Editor — empty state",
            "Share dialog",
            "Sidebar / folders",
            "Settings — account",
            "Onboarding / templates",
        ),
    ),
    ProductTemplate(
        "Orbit Fitness",
        "Workout tracking and coaching app.",
        "orbit-fitness",
        (
            "Workout — live session",
            "Progress charts",
            "Plan picker",
            "Paywall",
            "Onboarding / goals",
        ),
    ),
    ProductTemplate(
        "Fieldbook CRM",
        None,
        "fieldbook-crm",
        ("Pipeline board", "Contact detail", "Deal — edit form", "Reports dashboard", "Login"),
    ),
    ProductTemplate(
        "Marigold Recipes",
        "Recipe discovery and meal planning, marketing site and app.",
        "marigold-recipes",
        ("Recipe detail", "Meal plan — week view", "Landing page", "Shopping list", "Pricing page"),
    ),
    ProductTemplate(
        "Northwind Admin",
        "Internal admin console for the Northwind operations team.",
        "northwind-admin",
        (
            "Orders table",
            "Inventory — low stock",
            "User management",
            "Audit log",
            "Settings — integrations",
        ),
    ),
    ProductTemplate(
        "Tidepool Music",
        "Streaming player, library and artist pages.",
        "tidepool-music",
        (
            "Now playing",
            "Library / playlists",
            "Artist page",
            "Search — empty state",
            "Upgrade sheet",
        ),
    ),
    ProductTemplate(
        "Quill Docs",
        None,
        "quill-docs",
        ("Docs home", "API reference page", "Search overlay", "Changelog", "Sign up"),
    ),
)

SCREEN_VARIANTS: tuple[str, ...] = ("", "", "", " (dark)", " (mobile)", " (tablet)", " (RTL)")

# What each screen of `PRODUCTS` looks like: its picture is drawn as this kind of layout.
SCREEN_KINDS: tuple[str, ...] = ("list", "form", "landing", "dashboard", "detail", "cards")
KIND_OF_SCREEN: dict[str, str] = {
    "Checkout — payment step": "form",
    "Checkout — shipping address": "form",
    "Cart summary": "list",
    "Order confirmation": "detail",
    "Promo code sheet": "form",
    "Onboarding / welcome": "landing",
    "Accounts overview": "dashboard",
    "Transfer — review": "detail",
    "Card controls": "form",
    "Statement detail": "list",
    "Search results — flights": "list",
    "Trip detail": "detail",
    "Seat map": "cards",
    "Booking — passenger details": "form",
    "Home / hero": "landing",
    "Editor — empty state": "landing",
    "Share dialog": "form",
    "Sidebar / folders": "list",
    "Settings — account": "form",
    "Onboarding / templates": "cards",
    "Workout — live session": "dashboard",
    "Progress charts": "dashboard",
    "Plan picker": "cards",
    "Paywall": "landing",
    "Onboarding / goals": "cards",
    "Pipeline board": "cards",
    "Contact detail": "detail",
    "Deal — edit form": "form",
    "Reports dashboard": "dashboard",
    "Login": "form",
    "Recipe detail": "detail",
    "Meal plan — week view": "cards",
    "Landing page": "landing",
    "Shopping list": "list",
    "Pricing page": "cards",
    "Orders table": "list",
    "Inventory — low stock": "list",
    "User management": "list",
    "Audit log": "list",
    "Settings — integrations": "form",
    "Now playing": "detail",
    "Library / playlists": "list",
    "Artist page": "detail",
    "Search — empty state": "landing",
    "Upgrade sheet": "landing",
    "Docs home": "landing",
    "API reference page": "detail",
    "Search overlay": "list",
    "Changelog": "list",
    "Sign up": "form",
}
# Words that name a kind, for a label that is not one of the screens above.
KIND_WORDS: tuple[tuple[str, str], ...] = (
    ("dashboard", "dashboard"),
    ("chart", "dashboard"),
    ("form", "form"),
    ("login", "form"),
    ("sign", "form"),
    ("settings", "form"),
    ("list", "list"),
    ("table", "list"),
    ("results", "list"),
    ("log", "list"),
    ("detail", "detail"),
    ("page", "detail"),
    ("board", "cards"),
    ("picker", "cards"),
    ("pricing", "cards"),
)


def screen_kind(label: str) -> str:
    """The kind of layout a label names: its screen's kind (the label starts with the
    screen's name), else a word in it, else a landing page."""
    screen = max((name for name in KIND_OF_SCREEN if label.startswith(name)), key=len, default="")
    if screen:
        return KIND_OF_SCREEN[screen]
    lowered = label.lower()
    return next((kind for word, kind in KIND_WORDS if word in lowered), "landing")


IMAGE_HOST = "https://images.example.com"

ERROR_MESSAGES: tuple[str, ...] = (
    "Image could not be decoded",
    "Timed out fetching image",
    "Image URL returned HTTP 404",
    "Image is too large (max 20 MB)",
    "Unsupported image format: image/svg+xml",
    "No screen content detected in image",
)

# Feedback sentences per criterion: "low" below 60, "high" from 85, nothing in between.
FEEDBACK: dict[str, dict[str, tuple[str, ...]]] = {
    "visual_clarity": {
        "low": (
            "The layout feels cluttered; group related controls and add breathing room.",
            "Too many competing elements; remove secondary content from the first view.",
            "Text blocks are dense; shorter lines and more spacing would help scanning.",
        ),
        "high": (
            "The layout is clean and easy to scan.",
            "Generous spacing keeps the screen calm and readable.",
        ),
    },
    "visual_hierarchy": {
        "low": (
            "The primary heading does not stand out; increase its size or weight.",
            "Several elements share the same emphasis, so the eye has no clear starting point.",
            "Secondary information is as prominent as the main content.",
        ),
        "high": (
            "A clear hierarchy guides the eye from the heading to the main action.",
            "Headings and body text are well differentiated.",
        ),
    },
    "color_contrast": {
        "low": (
            "Body text contrast is below WCAG AA; darken the text or lighten the background.",
            "Placeholder and helper text are too faint to read comfortably.",
            "Low contrast between the buttons and the background makes them easy to miss.",
        ),
        "high": (
            "Text and controls meet contrast guidelines comfortably.",
            "Colour contrast is strong throughout the screen.",
        ),
    },
    "cta_effectiveness": {
        "low": (
            "The primary call to action is hard to find; give it a distinct colour and position.",
            "Two buttons compete for attention; make one clearly primary.",
            "The call to action label is vague; say what happens next.",
        ),
        "high": (
            "The primary call to action is prominent and clearly labelled.",
            "The main action is easy to find and reach.",
        ),
    },
    "brand_consistency": {
        "low": (
            "Typography departs from the brand type scale.",
            "Colours outside the brand palette appear in several components.",
            "Icon style is inconsistent with the rest of the product.",
        ),
        "high": (
            "Colours and type follow the brand guidelines closely.",
            "Components match the design system consistently.",
        ),
    },
}

NEUTRAL_FEEDBACK: tuple[str, ...] = (
    "Solid overall; small refinements to spacing would polish it further.",
    "No major issues found; consider testing the flow with real content.",
)
