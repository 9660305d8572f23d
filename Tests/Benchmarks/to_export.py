#!/usr/bin/env python3
"""Re-encodes hig-audit NDJSON (standard input) as another tool's export (standard output) under the
`hig.<type>` convention of SPEC §7, with the envelope where each format keeps it and a few of the
format's own fields around it, so that `import.sh` can time `--from` on realistic line sizes.

    to_export.py posthog|datadog-rum|otlp|otlp-batched < logs.ndjson > export.jsonl

`otlp` writes one record a request (a line); `otlp-batched` up to 100, as a collector's batch processor
and file exporter write them: in order, consecutive records of one resource under one `resourceLogs`.
"""
import json
import sys
import uuid
from datetime import datetime, timezone

COMMON = ("ts", "session", "type", "device", "app", "app_version", "os_version", "screen", "id")


def ms_of(ts):
    if isinstance(ts, int):
        return ts
    text = ts.replace("Z", "+00:00")
    return int(datetime.fromisoformat(text).timestamp() * 1000)


def rfc3339(ms):
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def fields(event):
    out = {k: v for k, v in event.items() if k not in COMMON}
    if event["type"] in ("loading.start", "loading.end") and "id" in event:
        out["id"] = event["id"]
    return out


def posthog(event, ms):
    properties = {"$session_id": event["session"], "$lib": "posthog-ios", "$lib_version": "3.15.0", "$os_name": "iOS"}
    for ours, theirs in (("device", "$device_id"), ("app_version", "$app_version"), ("os_version", "$os_version"), ("screen", "$screen_name")):
        if ours in event:
            properties[theirs] = event[ours]
    properties.update(fields(event))
    line = {"event": "hig." + event["type"], "distinct_id": event.get("device", "anon"), "timestamp": rfc3339(ms), "properties": properties}
    if "id" in event and event["type"] not in ("loading.start", "loading.end"):
        line["uuid"] = event["id"]
    return line


def datadog(event, ms):
    action = {"type": "custom", "target": {"name": "hig." + event["type"]}}
    if "id" in event and event["type"] not in ("loading.start", "loading.end"):
        action["id"] = event["id"]
    line = {"type": "action", "date": ms, "application": {"id": "app-1"}, "service": "bench-ios", "source": "ios",
            "session": {"id": event["session"], "type": "user"}, "action": action, "context": fields(event),
            "_dd": {"format_version": 2}}
    if "device" in event:
        line["usr"] = {"anonymous_id": event["device"]}
    if "app_version" in event:
        line["version"] = event["app_version"]
    if "os_version" in event:
        line["os"] = {"name": "iOS", "version": event["os_version"]}
    if "screen" in event:
        line["view"] = {"id": "v", "name": event["screen"]}
    return line


def typed(value):
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    # An SDK's own map or list (one writer attaches an `sdk` object) is an OTLP `kvlistValue` or
    # `arrayValue`, as a real exporter writes it, not a string.
    if isinstance(value, dict):
        return {"kvlistValue": {"values": [{"key": k, "value": typed(v)} for k, v in value.items() if v is not None]}}
    if isinstance(value, list):
        return {"arrayValue": {"values": [typed(v) for v in value if v is not None]}}
    return {"stringValue": str(value)}


def otlp(event, ms):
    # OTLP has no null value: an SDK leaves out an attribute it has no value for, as a `null`
    # optional field of ours means absent.
    event = {k: v for k, v in event.items() if v is not None}
    attributes = [{"key": "session.id", "value": {"stringValue": event["session"]}}]
    if "screen" in event:
        attributes.append({"key": "screen.name", "value": {"stringValue": event["screen"]}})
    if "id" in event and event["type"] not in ("loading.start", "loading.end"):
        attributes.append({"key": "log.record.uid", "value": {"stringValue": event["id"]}})
    attributes += [{"key": k, "value": typed(v)} for k, v in fields(event).items()]
    resource = [{"key": "service.name", "value": {"stringValue": "bench-ios"}}]
    for ours, theirs in (("device", "device.id"), ("app_version", "service.version"), ("os_version", "os.version")):
        if ours in event:
            resource.append({"key": theirs, "value": {"stringValue": event[ours]}})
    record = {"timeUnixNano": str(ms * 1000000), "observedTimeUnixNano": str(ms * 1000000), "eventName": "hig." + event["type"],
              "severityNumber": 9, "attributes": attributes}
    return {"resourceLogs": [{"resource": {"attributes": resource}, "scopeLogs": [{"scope": {"name": "bench"}, "logRecords": [record]}]}]}


BATCH = 100


def write_batch(requests, out):
    resource_logs = []
    for request in requests:
        for entry in request["resourceLogs"]:
            if resource_logs and resource_logs[-1]["resource"] == entry["resource"]:
                resource_logs[-1]["scopeLogs"][0]["logRecords"] += entry["scopeLogs"][0]["logRecords"]
            else:
                resource_logs.append(entry)
    out.write(json.dumps({"resourceLogs": resource_logs}, separators=(",", ":")))
    out.write("\n")


def main():
    batched = sys.argv[1] == "otlp-batched"
    encode = {"posthog": posthog, "datadog-rum": datadog, "otlp": otlp, "otlp-batched": otlp}[sys.argv[1]]
    out = sys.stdout
    pending = []
    for raw in sys.stdin:
        raw = raw.strip()
        if not raw:
            continue
        try:
            event = json.loads(raw)
            ms = ms_of(event["ts"])
        except (ValueError, KeyError):
            continue
        if batched:
            pending.append(encode(event, ms))
            if len(pending) == BATCH:
                write_batch(pending, out)
                pending = []
            continue
        out.write(json.dumps(encode(event, ms), separators=(",", ":")))
        out.write("\n")
    if pending:
        write_batch(pending, out)


main()
