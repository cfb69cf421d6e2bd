"""Reading back what a step wrote for the runner: the `GITHUB_OUTPUT` file's `name<<DELIMITER` blocks
and `name=value` lines."""

from __future__ import annotations


def read_outputs(text: str) -> dict[str, str]:
    """Every output, the last value of a name winning, as on GitHub."""
    outputs: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        if "=" in line and ("<<" not in line or line.index("=") < line.index("<<")):
            name, single = line.split("=", 1)
            outputs[name] = single
            continue
        name, delimiter = line.split("<<", 1)
        value = []
        for inner in lines:
            if inner == delimiter:
                break
            value.append(inner)
        outputs[name] = "\n".join(value)
    return outputs
