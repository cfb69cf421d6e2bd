"""Reading back what an action wrote for the runner: the `GITHUB_OUTPUT` file's `name<<DELIMITER` blocks."""

from __future__ import annotations


def read_outputs(text: str) -> dict[str, str]:
    """Every output, the last value of a name winning, as on GitHub."""
    outputs: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        name, delimiter = line.split("<<", 1)
        value = []
        for inner in lines:
            if inner == delimiter:
                break
            value.append(inner)
        outputs[name] = "\n".join(value)
    return outputs
