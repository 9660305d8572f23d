#!/usr/bin/env python3
"""Rewrites an export (one JSON object a line, as `to_export.py` or `hig-audit sample --format` write it)
as another exporter lays out the same events, so that importing is measured on more than our own
writers' habits.

    python3 Tests/Benchmarks/export_variants.py FORMAT VARIANT < export.jsonl > variant.jsonl

Variants (each keeps every event, so `analyze --from` gives the same tables, but for file names):
- otlp `name-last`: each record's `eventName` after its other members, as the OpenTelemetry
  Collector writes a log record (its fields in protobuf order, `event_name` last);
- otlp `attribute-name`: the name as the attribute `event.name` after the record's other attributes,
  and no `eventName` (exporters older than OTLP 1.5);
- posthog `uuid-first`: `uuid` (a 36-character UUID, made from the line's number) first, then `event`,
  `properties`, `distinct_id` and `timestamp`, as PostHog's batch exports write them;
- posthog, datadog-rum `reversed`: the top-level keys in the reverse order;
- posthog, datadog-rum, otlp `shuffled`: every object's keys in a new order on every line, as a writer
  iterating a hash map writes them (Swift's `Dictionary`, Rust's `HashMap`), arrays as they were;
- otlp `attributes-shuffled`: each record's and resource's attributes in a new order on every line
  (an SDK keeping attributes in a hash map), keys as they were;
- otlp `attributes-per-session`: each record's attributes in one order per session and set of
  attribute names, as a hash map seeded once a process (an app launch) orders them: lines of one
  session repeat their layouts, thousands of sessions interleaved hold thousands of layouts.
The shuffles are drawn from the line's number, so the same input gives the same bytes.
"""
import json
import random
import sys
import uuid


def records(request):
    for resource_logs in request.get("resourceLogs", []):
        for scope_logs in resource_logs.get("scopeLogs", []):
            yield from scope_logs.get("logRecords", [])


def name_last(request, _):
    for record in records(request):
        name = record.pop("eventName", None)
        if name is not None:
            record["eventName"] = name
    return request


def attribute_name(request, _):
    for record in records(request):
        name = record.pop("eventName", None)
        if name is not None:
            record.setdefault("attributes", []).append({"key": "event.name", "value": {"stringValue": name}})
    return request


def uuid_first(event, number):
    event["uuid"] = str(uuid.UUID(int=(number * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 128)))
    order = ["uuid", "event", "properties", "distinct_id", "timestamp"]
    return {**{key: event[key] for key in order if key in event}, **event}


def reversed_keys(event, _):
    return dict(reversed(list(event.items())))


def shuffled(value, number):
    draw = random.Random(number)

    def shuffle(node):
        if isinstance(node, dict):
            items = list(node.items())
            draw.shuffle(items)
            return {key: shuffle(child) for key, child in items}
        if isinstance(node, list):
            return [shuffle(child) for child in node]
        return node
    return shuffle(value)


def attributes_shuffled(request, number):
    draw = random.Random(number)
    for resource_logs in request.get("resourceLogs", []):
        draw.shuffle(resource_logs.get("resource", {}).get("attributes", []))
    for record in records(request):
        draw.shuffle(record.get("attributes", []))
    return request


SESSION_ORDERS = {}


def attributes_per_session(request, _):
    for record in records(request):
        attributes = record.get("attributes", [])
        by_name = {attribute["key"]: attribute for attribute in attributes}
        session = by_name.get("session.id", {}).get("value", {}).get("stringValue", "")
        names = tuple(sorted(by_name))
        order = SESSION_ORDERS.get((session, names))
        if order is None:
            order = list(names)
            random.Random(f"{session} {names}").shuffle(order)
            SESSION_ORDERS[(session, names)] = order
        record["attributes"] = [by_name[name] for name in order]
    return request


VARIANTS = {
    ("otlp", "name-last"): name_last,
    ("otlp", "attribute-name"): attribute_name,
    ("posthog", "uuid-first"): uuid_first,
    ("posthog", "reversed"): reversed_keys,
    ("datadog-rum", "reversed"): reversed_keys,
    ("posthog", "shuffled"): shuffled,
    ("datadog-rum", "shuffled"): shuffled,
    ("otlp", "shuffled"): shuffled,
    ("otlp", "attributes-shuffled"): attributes_shuffled,
    ("otlp", "attributes-per-session"): attributes_per_session,
}

if len(sys.argv) != 3 or (sys.argv[1], sys.argv[2]) not in VARIANTS:
    sys.exit("usage: export_variants.py FORMAT VARIANT, one of: "
             + ", ".join(f"{f} {v}" for f, v in VARIANTS))
rewrite = VARIANTS[(sys.argv[1], sys.argv[2])]
for number, line in enumerate(sys.stdin, 1):
    if line.strip():
        sys.stdout.write(json.dumps(rewrite(json.loads(line), number), separators=(",", ":")) + "\n")
