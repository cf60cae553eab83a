# Runs a Pulumi Python program for the minimal language host (main.go beside this file); TEST TOOLING.
# Uses only the pulumi package's public runtime API: the official host's executor ships with the
# Pulumi CLI distribution, not with the pulumi wheel.
import argparse
import asyncio
import json
import os
import runpy
import signal
import sys
import traceback

import pulumi
import pulumi.runtime
from pulumi.runtime import settings, stack

# Exit code after the error has been shown to the user (the host then stops quietly).
USER_ACTIONABLE = 32

parser = argparse.ArgumentParser()
for flag in ("monitor", "engine", "organization", "project", "stack", "root-directory"):
    parser.add_argument("--" + flag)
parser.add_argument("--parallel", type=int, default=0)
parser.add_argument("--dry-run", action="store_true")
parser.add_argument("program")
args = parser.parse_args()

pulumi.runtime.set_all_config(json.loads(os.environ.get("PULUMI_CONFIG", "{}")), json.loads(os.environ.get("PULUMI_CONFIG_SECRET_KEYS", "[]")))
settings.configure(
    settings.Settings(
        project=args.project,
        stack=args.stack,
        monitor=args.monitor,
        engine=args.engine,
        parallel=args.parallel,
        dry_run=args.dry_run,
        organization=args.organization,
        root_directory=args.root_directory,
    )
)

program = os.path.abspath(args.program)
if os.path.isdir(program):
    sys.path.insert(0, program)
else:
    sys.path.insert(0, os.path.dirname(program))

# The host interrupts the program when the engine cancels the run, which it does after showing the
# error that stopped it: end at once, with no KeyboardInterrupt traceback under that error.
signal.signal(signal.SIGINT, lambda *_: os._exit(USER_ACTIONABLE))

loop = asyncio.new_event_loop()
asyncio.set_event_loop(loop)
try:
    loop.run_until_complete(stack.run_in_stack(lambda: runpy.run_path(program, run_name="__main__")))
except pulumi.RunError as e:
    pulumi.log.error(str(e))
    sys.exit(USER_ACTIONABLE)
except Exception:
    pulumi.log.error("Program failed with an unhandled exception:\n" + traceback.format_exc())
    sys.exit(USER_ACTIONABLE)
finally:
    loop.close()
