/**
 * A mutation fuzzer of the command line on the project's real inputs (docs/fuzzing.md): it mutates
 * every log, matrix, dump, nccl-tests output, YAML and JSON the repository holds, runs each mutant
 * through {@code io.topolens.cli.Main} in-process and records what a user must never see (a stack
 * trace, an exit code other than 0/1/2, a hang, an error without the file's name). A tool, not a
 * test: built with {@code -P fuzz}, run by {@code bench/fuzz.sh}.
 */
package io.topolens.fuzz;
