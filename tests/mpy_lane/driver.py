"""Runs calls of a module under MicroPython for tests/mpy_lane/run.mjs (CPython never runs this).

/request.json is ``{"module": name, "calls": [[function, [args…]], …]}``; /response.json gets
``{"import_ms": …}``, then for each call in order ``{"value": …, "ms": …}`` or
``{"error": traceback, "ms": …}``.
"""

import io
import json
import sys
import time


def main():
    with open("/request.json") as f:
        request = json.load(f)
    start = time.ticks_ms()
    module = __import__(request["module"])
    answers = [{"import_ms": time.ticks_diff(time.ticks_ms(), start)}]
    for name, args in request["calls"]:
        start = time.ticks_ms()
        try:
            value = getattr(module, name)(*args)
            json.loads(json.dumps(value))  # MicroPython writes what is not JSON as its repr: refuse it here
            answer = {"value": value}
        except Exception as exc:  # reported, so that one broken call does not hide the others
            trace = io.StringIO()
            sys.print_exception(exc, trace)
            answer = {"error": trace.getvalue()}
        answer["ms"] = time.ticks_diff(time.ticks_ms(), start)
        answers.append(answer)
    with open("/response.json", "w") as f:
        json.dump(answers, f)


if __name__ == "__main__":
    main()
