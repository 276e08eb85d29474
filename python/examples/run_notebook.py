"""Runs the %%xlet cell magic in a real IPython kernel, as Jupyter does:
builds a notebook of cells, executes it with nbclient (a fresh ipykernel),
prints every cell's output, and checks the ones that matter.

    pip install nbclient nbformat ipykernel
    python python/examples/run_notebook.py [OUT.ipynb]
"""

import sys

import nbformat
from nbclient import NotebookClient

CELLS = [
    "import numpy as np\n%load_ext xlet\n"
    "x = np.arange(6, dtype=np.float32).reshape(2, 3)\nw = np.ones((3, 2), np.float32)",
    "%%xlet x w -o h\nlet h = Tanh(Dot(x, w))\nReduce(h, f32 0, add, dimensions={0})",
    "print(h.dtype, h.shape, h.round(4).tolist())",
    "%%xlet\nlet z = h * f32 2\nthen z == Add(h, h)\nz",
    "%%xlet\nAdd(f32[2] {1, 2}, f32[3] {1, 2, 3})",
    "print(xlet_session.bindings())",
]


def main():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in CELLS]
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True).execute()
    texts = []
    for i, cell in enumerate(nb.cells):
        out = []
        for o in cell.get("outputs", []):
            if o.output_type == "stream":
                out.append(o.text)
            elif o.output_type == "execute_result":
                out.append(o.data.get("text/plain", ""))
            elif o.output_type == "error":
                out.append(f"{o.ename}: {o.evalue}")
        text = "".join(s if s.endswith("\n") else s + "\n" for s in out)
        texts.append(text)
        print(f"--- In [{i + 1}]:\n{cell.source}\n--- Out:\n{text}")
    if len(sys.argv) > 1:
        nbformat.write(nb, sys.argv[1])
    # tanh(3) + tanh(12) = 1.9950547 (each row of x @ w sums a row of x).
    assert "1.9950547" in texts[1], texts[1]
    assert "float32 (2, 2)" in texts[2], texts[2]
    assert "Add: C6" in texts[4] and "Traceback" not in texts[4], texts[4]
    assert "('h', 'f32[2x2]')" in texts[5] and "('z', 'f32[2x2]')" in texts[5], texts[5]
    print("ok: the cell magic ran in a real IPython kernel")


if __name__ == "__main__":
    main()
