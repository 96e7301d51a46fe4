"""Every operation of the OpenAPI schema shows examples, and every example is true to the
schema it illustrates (a bot author copies them; an example that the schema refuses, or
that shows an undocumented field, teaches the wrong thing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
import yaml
from rest_framework.test import APIClient

from tests.openapi import json_schema

METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    response = APIClient().get("/api/v1/schema/")
    assert response.status_code == 200
    loaded: dict[str, Any] = yaml.safe_load(response.content)
    return loaded


def bodies(document: dict[str, Any]) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """(operation, "request" or the status, media type, media object) of every JSON body."""
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            name = f"{method.upper()} {path}"
            request = operation.get("requestBody", {}).get("content", {})
            if "application/json" in request:
                yield name, "request", "application/json", request["application/json"]
            for status, response in operation["responses"].items():
                content = response.get("content", {})
                if "application/json" in content:
                    yield name, status, "application/json", content["application/json"]


def test_every_json_request_and_success_answer_has_an_example(document: dict[str, Any]) -> None:
    missing = [
        f"{name} {where}"
        for name, where, _, media in bodies(document)
        if (where == "request" or where.startswith("2"))
        and not media.get("examples")
        and "example" not in media
    ]
    assert not missing, "no example for: " + ", ".join(missing)


def test_every_example_is_valid_against_its_schema(document: dict[str, Any]) -> None:
    components = json_schema(document["components"])
    checked = 0
    wrong: list[str] = []
    for name, where, _, media in bodies(document):
        validator = jsonschema.Draft202012Validator(
            {**json_schema(media["schema"]), "components": components}
        )
        examples = dict(media.get("examples", {}))
        if "example" in media:
            examples["example"] = {"value": media["example"]}
        for title, example in examples.items():
            checked += 1
            for error in validator.iter_errors(example["value"]):
                place = "/".join(map(str, error.absolute_path)) or "(top)"
                wrong.append(f"{name} {where} '{title}' at {place}: {error.message[:160]}")
    assert checked >= 40
    assert not wrong, "\n".join(wrong)
