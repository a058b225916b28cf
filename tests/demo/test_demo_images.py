"""The reference server's images: one deterministic PNG per analysis, cached, validated,
and each image fault."""

from __future__ import annotations

import io
from typing import Any

import httpx
import pytest
from PIL import Image

from screen_analysis.demo.images import DESKTOP, MOBILE, ScreenStory, draw_screen, story_etag
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
