/**
 * Step times read from training frameworks' own log lines (Hugging Face Trainer, DeepSpeed, PyTorch
 * Lightning, torchtitan, Megatron-LM, JSON lines): {@link io.topolens.steps.StepTimeReader} reads
 * lines as they stream, one format class per framework, and {@link io.topolens.steps.StepTimes}
 * holds what was found and sums it up. It reads and records; it never judges. docs/steps.md lists
 * the formats and how each time is derived.
 */
package io.topolens.steps;
