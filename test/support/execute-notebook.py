"""Execute one notebook with nbclient under a named kernel; write the executed notebook to a file.

usage: execute-notebook.py NOTEBOOK KERNEL_NAME OUT_PATH [TIMEOUT_SECONDS]
Exit 0 when every cell ran (a cell tagged raises-exception may fail); exit 1 with the failing cell and its error
on stderr otherwise.
"""
import os
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError

# a last cell that shows nothing, run so that a late output of the real last cell is still collected
SENTINEL = "void 0"


class LateOutputClient(NotebookClient):
    """Deno's kernel sometimes sends a cell's result just after saying it is idle again, where nbclient, which stops
    reading a cell's outputs at idle, drops it. Outputs are put in the cell they answer, whenever they arrive."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.asked = {}  # execute request id -> (cell, index)

    async def _async_poll_output_msg(self, parent_msg_id, cell, cell_index):
        self.asked[parent_msg_id] = (cell, cell_index)
        while True:
            msg = await self.kc.iopub_channel.get_msg(timeout=None)
            parent = msg["parent_header"].get("msg_id")
            if parent == parent_msg_id:
                try:
                    self.process_message(msg, cell, cell_index)
                except Exception as done:  # CellExecutionComplete ends this cell
                    if type(done).__name__ == "CellExecutionComplete":
                        return
                    raise
            elif parent in self.asked and msg["msg_type"] in ("execute_result", "display_data", "stream"):
                earlier, index = self.asked[parent]
                self.process_message(msg, earlier, index)


def main(argv):
    path, kernel, out = argv[1], argv[2], argv[3]
    timeout = int(argv[4]) if len(argv) > 4 else 120
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(SENTINEL))
    client = LateOutputClient(nb, kernel_name=kernel, timeout=timeout, startup_timeout=60, record_timing=False,
                              resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}})
    failed = None
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError) as e:
        failed = str(e).strip().splitlines()
        # the failing cell's own outputs say why (tslab prints its errors on stderr)
        for cell in nb.cells:
            for shown in cell.get("outputs", []):
                if shown.get("name") == "stderr" or shown.get("output_type") == "error":
                    failed += "".join(shown.get("text", "")).splitlines() + shown.get("traceback", [])
    nb.cells = [c for c in nb.cells if not (c.cell_type == "code" and c.source == SENTINEL)]
    nbformat.write(nb, out)
    if failed:
        print(f"{path} under {kernel}: " + " | ".join(failed[-12:]), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
