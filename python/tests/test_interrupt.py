"""Ctrl-C stops a long run with KeyboardInterrupt; the session stays usable."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import xlet

LONG_WHILE = (
    "comp cond(i: s64) -> pred { i < 4000000000000 }\n"
    "comp body(i: s64) -> s64 { i + 1 }\n"
    "let forever = While(cond, body, s64 0)"
)


def interrupt_after(seconds, how):
    def fire():
        if how == "kill":
            os.kill(os.getpid(), signal.SIGINT)
        else:
            import _thread

            _thread.interrupt_main()

    t = threading.Timer(seconds, fire)
    t.start()
    return t


@pytest.mark.parametrize("how", ["kill", "interrupt_main"])
def test_ctrl_c_from_another_thread_stops_a_long_while(how):
    # Python's own handler, whatever the process was started with (a shell
    # starts a background job with SIGINT ignored).
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    s = xlet.Session()
    s.run("let a = s32 1")
    t = interrupt_after(0.3, how)
    # If the first Ctrl-C were lost, the loop would run for hours: a second
    # one at 10 s ends the test, which then fails on the time it took.
    watchdog = interrupt_after(10, how)
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            s.run(LONG_WHILE)
        took = time.monotonic() - start
    finally:
        watchdog.cancel()
        t.join()
        signal.signal(signal.SIGINT, old)
    assert took < 5, f"the first Ctrl-C was lost: the run stopped after {took:.1f} s"
    # The interrupted input committed nothing; the session runs on.
    assert "forever" not in s
    assert s.run("a + s32 1") == 2
    np.testing.assert_array_equal(xlet.eval("x * 2", x=np.int32([1, 2])), [2, 4])


def test_other_threads_run_while_xlet_works():
    # The GIL is released during a run: a Python thread makes progress.
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    th = threading.Thread(target=tick)
    th.start()
    xlet.eval(
        "comp c(i: s64) -> pred { i < 3000000 }\ncomp b(i: s64) -> s64 { i + 1 }\n"
        "While(c, b, s64 0)"
    )
    stop.set()
    th.join()
    assert len(ticks) > 3
