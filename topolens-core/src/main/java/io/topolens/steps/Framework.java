package io.topolens.steps;

/** The training framework a step-time line comes from. */
public enum Framework {
  HUGGING_FACE("huggingface", "Hugging Face Trainer"),
  DEEPSPEED("deepspeed", "DeepSpeed"),
  LIGHTNING("lightning", "PyTorch Lightning"),
  TORCHTITAN("torchtitan", "torchtitan"),
  MEGATRON("megatron", "Megatron-LM"),
  JSON_LINES("json", "JSON lines");

  private final String id;
  private final String label;

  Framework(String id, String label) {
    this.id = id;
    this.label = label;
  }

  /** The name in JSON output. */
  public String id() {
    return id;
  }

  /** The name in text output. */
  public String label() {
    return label;
  }
}
