"""Long runs from Python: World.step lets other Python threads run while it steps (the GIL
released), and Ctrl+C stops it between steps with KeyboardInterrupt, the world left consistent.
No verdict here depends on the machine's speed: each waits for what it needs to see."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import unittest

import clumplab
from support import SCENES

SCENE = os.path.join(SCENES, "default.json")


class Gil(unittest.TestCase):
    def test_other_threads_run_while_a_world_steps(self):
        """A thread steps the default scene (20000 steps: about a second here, so tens of
        milliseconds even on a machine many times faster); the main thread ticks every millisecond
        meanwhile. With the GIL held for the whole call it could not tick at all until it returned."""
        world = clumplab.load(SCENE)
        started = threading.Event()
        finished = threading.Event()

        def stepping():
            started.set()
            world.step(20000)
            finished.set()

        ticks_during = 0
        worker = threading.Thread(target=stepping)
        worker.start()
        started.wait()
        while not finished.is_set():
            time.sleep(0.001)
            if not finished.is_set():
                ticks_during += 1
        worker.join()
        self.assertEqual(world.step_count, 20000)
        self.assertGreater(ticks_during, 20)


class Interrupt(unittest.TestCase):
    def test_ctrl_c_stops_a_long_step_between_steps(self):
        """SIGINT to a script in world.step(10**9): KeyboardInterrupt, the steps taken so far kept,
        the world still steps."""
        script = textwrap.dedent(f"""
            import sys, clumplab
            world = clumplab.load({SCENE!r})
            world.step(1)
            print("stepping", flush=True)
            try:
                world.step(10 ** 9)
            except KeyboardInterrupt:
                print("interrupted", world.step_count > 1, world.step_count < 10 ** 9, flush=True)
                world.step(1)
                print("steps on", flush=True)
        """)
        child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, env=os.environ)
        self.assertEqual(child.stdout.readline().strip(), "stepping")
        time.sleep(0.5)  # let it take some steps (any number will do)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=300)
        self.assertEqual(child.returncode, 0, err)
        self.assertEqual(out.split(), ["interrupted", "True", "True", "steps", "on"], err)


if __name__ == "__main__":
    unittest.main()
