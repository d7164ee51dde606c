package io.topolens.kube.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.topolens.kube.manifest.YamlDocument;
import io.topolens.nccl.InputProblem;
import java.util.ArrayList;
import java.util.List;

/**
 * What a run creates: the job (one TrainJob, PyTorchJob, MPIJob, JobSet or Job) and the documents
 * that support it (a Trainer runtime, ConfigMaps), in the order given.
 *
 * @param documents every document, in apply order
 * @param job the job document
 */
public record Submission(List<JsonNode> documents, JsonNode job, RunKind kind, String name) {

  /** The submission of manifest documents; exactly one of them must be a job topolens can run. */
  public static Submission of(List<YamlDocument> docs) throws InputProblem {
    List<JsonNode> all = new ArrayList<>();
    JsonNode job = null;
    RunKind kind = null;
    YamlDocument jobDoc = null;
    for (YamlDocument d : docs) {
      String api = d.root().path("apiVersion").asText();
      String k = d.root().path("kind").asText();
      if (api.isEmpty() || k.isEmpty()) {
        throw new InputProblem(
            d.file()
                + ":"
                + d.line("")
                + ": document "
                + (d.index() + 1)
                + " has no apiVersion or kind");
      }
      if (d.root().path("metadata").path("name").asText().isEmpty()) {
        throw new InputProblem(
            d.file() + ":" + d.line("/metadata") + ": " + k + " has no metadata.name");
      }
      var rk = RunKind.job(api, k);
      if (rk.isPresent()) {
        if (job != null) {
          throw new InputProblem(
              d.file()
                  + ":"
                  + d.line("/kind")
                  + ": a second job ("
                  + k
                  + ") after "
                  + kind.kind()
                  + " at line "
                  + jobDoc.line("/kind")
                  + "; topolens run starts one job at a time");
        }
        job = d.root();
        kind = rk.get();
        jobDoc = d;
      }
      all.add(d.root());
    }
    if (job == null) {
      String file = docs.isEmpty() ? "input" : docs.get(0).file();
      throw new InputProblem(file + ": no TrainJob, PyTorchJob, MPIJob, JobSet or Job to run");
    }
    return new Submission(all, job, kind, job.path("metadata").path("name").asText());
  }
}
