"""OpenAPI 3.0 schema objects as JSON Schema, for validating bodies against the schema."""

from __future__ import annotations

from typing import Any


def json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema object as JSON Schema (2020-12), objects closed: ``nullable``
    becomes ``anyOf [..., null]`` and an object with ``properties`` gets
    ``additionalProperties: false`` unless it says otherwise, so that an undocumented field
    fails too."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: json_schema(value) for key, value in node.items() if key != "nullable"}
    if converted.get("type") == "object" and "properties" in converted:
        converted.setdefault("additionalProperties", False)
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted
