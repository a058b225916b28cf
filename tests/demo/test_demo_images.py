"""The reference server's images: one deterministic PNG per analysis, cached, validated,
and each image fault."""

from __future__ import annotations

import io
from typing import Any

import httpx
import pytest
from PIL import Image

from screen_analysis.demo.images import (
    DESKTOP,
    MOBILE,
    TALL,
    ScreenStory,
    draw_screen,
    story_etag,
)
from screen_analysis.demo.runner import DemoServer
from screen_analysis.images.decode import ImageDecodeError, prepare


def _first(api: httpx.Client, **params: Any) -> dict[str, Any]:
    data: list[dict[str, Any]] = api.get("/v1/analyses", params={"limit": 5, **params}).json()[
        "data"
    ]
    return data[0]


def test_image_url_points_at_the_api_origin(api: httpx.Client, demo_server: DemoServer) -> None:
    item = _first(api)
    assert item["image_url"] == f"{demo_server.base_url}/v1/images/{item['id']}.png"


def test_image_is_a_png_with_validators(api: httpx.Client) -> None:
    item = _first(api, status="completed")
    response = api.get(item["image_url"])
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    assert response.headers["etag"].startswith('"')
    assert "max-age=" in response.headers["cache-control"]
    assert response.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert api.get(item["image_url"]).content == response.content  # deterministic


def test_matching_if_none_match_answers_304(api: httpx.Client) -> None:
    url = _first(api)["image_url"]
    etag = api.get(url).headers["etag"]
    again = api.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert api.get(url, headers={"If-None-Match": '"other"'}).status_code == 200


def test_images_need_the_key(demo_server: DemoServer, api: httpx.Client) -> None:
    url = _first(api)["image_url"]
    assert httpx.get(url).status_code == 401


def test_unknown_analysis_is_404(api: httpx.Client) -> None:
    assert api.get("/v1/images/ana_nope.png").status_code == 404


def test_platform_and_scores_shape_the_picture() -> None:
    scores = dict.fromkeys(("color_contrast", "cta_effectiveness", "visual_hierarchy"), 90)
    good = ScreenStory("ana_1", "Checkout (mobile)", scores)
    poor = ScreenStory("ana_1", "Checkout (mobile)", dict.fromkeys(scores, 10))
    assert Image.open(io.BytesIO(draw_screen(good))).size == MOBILE
    assert Image.open(io.BytesIO(draw_screen(ScreenStory("ana_1", "Home", {})))).size == DESKTOP
    assert story_etag(good) != story_etag(poor)
    good_pixels = Image.open(io.BytesIO(draw_screen(good))).convert("L")
    poor_pixels = Image.open(io.BytesIO(draw_screen(poor))).convert("L")
    # Low colour contrast washes the picture out: less spread between dark and light.
    spread = [p.getextrema()[1] - p.getextrema()[0] for p in (good_pixels, poor_pixels)]
    assert spread[0] > spread[1]


def picture(story: ScreenStory) -> Image.Image:
    return Image.open(io.BytesIO(draw_screen(story))).convert("RGB")


def test_every_screen_of_the_demo_has_a_kind() -> None:
    from screen_analysis.demo.vocabulary import (
        KIND_OF_SCREEN,
        PRODUCTS,
        SCREEN_KINDS,
        SCREEN_VARIANTS,
        screen_kind,
    )

    screens = {screen for product in PRODUCTS for screen in product.screens}
    assert screens == set(KIND_OF_SCREEN)
    assert set(KIND_OF_SCREEN.values()) == set(SCREEN_KINDS)
    for screen, kind in KIND_OF_SCREEN.items():
        for variant in SCREEN_VARIANTS:
            assert screen_kind(f"{screen} v3{variant}") == kind
    assert screen_kind("Shopping list v2 (mobile)") == "list"
    assert screen_kind("Something else") == "landing"


def test_each_kind_is_drawn_differently_and_deterministically() -> None:
    labels = {
        "list": "Shopping list",
        "form": "Login",
        "landing": "Landing page",
        "dashboard": "Reports dashboard",
        "detail": "Recipe detail",
        "cards": "Pricing page",
    }
    drawn = {
        kind: draw_screen(ScreenStory("ana_same", label, {})) for kind, label in labels.items()
    }
    assert len(set(drawn.values())) == len(labels)  # same id and scores, six pictures
    assert draw_screen(ScreenStory("ana_same", "Shopping list", {})) == drawn["list"]


def test_a_projects_screens_share_its_brand_colour() -> None:
    steady = {"brand_consistency": 100}
    one = picture(ScreenStory("ana_1", "Login", steady, project_id="proj_a"))
    two = picture(ScreenStory("ana_2", "Shopping list", steady, project_id="proj_a"))
    other = picture(ScreenStory("ana_1", "Login", steady, project_id="proj_b"))
    corner = (DESKTOP[0] - 2, 2)  # the nav bar, in the brand colour
    assert one.getpixel(corner) == two.getpixel(corner) != other.getpixel(corner)


def test_a_right_to_left_screen_is_the_mirror_image() -> None:
    plain = picture(ScreenStory("ana_rtl", "Cart summary v2", {}))
    mirrored = picture(ScreenStory("ana_rtl", "Cart summary v2 (RTL)", {}))
    assert mirrored.tobytes() == plain.transpose(Image.Transpose.FLIP_LEFT_RIGHT).tobytes()


def test_a_failed_analysis_shows_what_its_message_says() -> None:
    def failed(message: str, label: str = "Cart summary") -> Image.Image:
        return picture(ScreenStory("ana_fail", label, {}, "failed", message))

    screen = picture(ScreenStory("ana_fail", "Cart summary", {}))
    blank = failed("No screen content detected in image")
    assert blank.getcolors() is not None and len(blank.getcolors() or ()) == 1
    for message in ("Image URL returned HTTP 404", "Unsupported image format: image/svg+xml"):
        other = failed(message)
        assert len(other.getcolors(1 << 16) or ()) > 2 and other.tobytes() != screen.tobytes()
    timed_out = failed("Timed out fetching image")
    bottom = timed_out.crop((0, timed_out.height - 20, timed_out.width, timed_out.height))
    assert len(bottom.getcolors() or ()) == 1  # the rest never arrived
    assert (
        timed_out.crop((0, 0, timed_out.width, 40)).tobytes()
        == screen.crop((0, 0, screen.width, 40)).tobytes()
    )
    assert failed("Image is too large (max 20 MB)").size == (DESKTOP[0], DESKTOP[1] * TALL)
    broken = failed("Image could not be decoded")
    assert broken.size == screen.size and broken.tobytes() != screen.tobytes()
    assert story_etag(ScreenStory("a", "b", {}, "failed", "x")) != story_etag(
        ScreenStory("a", "b", {}, "failed", "y")
    )


def test_the_server_draws_a_failed_analysis_from_its_message(api: httpx.Client) -> None:
    rows: list[dict[str, Any]] = api.get(
        "/v1/analyses", params={"limit": 100, "status": "failed"}
    ).json()["data"]
    blank = next(r for r in rows if r["error_message"] == "No screen content detected in image")
    image = Image.open(io.BytesIO(api.get(blank["image_url"]).content)).convert("RGB")
    assert len(image.getcolors() or ()) == 1


@pytest.mark.parametrize(
    ("fault", "check"),
    [
        ("404", lambda r: r.status_code == 404),
        ("not-image", lambda r: r.status_code == 200 and not r.content.startswith(b"\x89PNG")),
        ("corrupt", lambda r: r.status_code == 200 and r.content.startswith(b"\x89PNG")),
        ("huge", lambda r: r.status_code == 200 and len(r.content) < 1000),
    ],
)
def test_image_faults(fresh_demo_server: DemoServer, fault: str, check: Any) -> None:
    with httpx.Client(headers={"Authorization": f"Bearer {fresh_demo_server.api_key}"}) as api:
        url = api.get(f"{fresh_demo_server.base_url}/v1/analyses").json()["data"][0]["image_url"]
        fresh_demo_server.faults.image_fault = fault
        response = api.get(url)
    assert check(response)
    if fault in ("corrupt", "huge"):
        with pytest.raises(ImageDecodeError):
            prepare(response.content, (100, 100))


def test_slow_fault_delays(fresh_demo_server: DemoServer) -> None:
    fresh_demo_server.faults.image_fault = "slow"
    fresh_demo_server.faults.image_slow_ms = 300
    headers = {"Authorization": f"Bearer {fresh_demo_server.api_key}"}
    with httpx.Client(headers=headers) as api:
        url = api.get(f"{fresh_demo_server.base_url}/v1/analyses").json()["data"][0]["image_url"]
        with pytest.raises(httpx.ReadTimeout):
            api.get(url, timeout=0.1)
