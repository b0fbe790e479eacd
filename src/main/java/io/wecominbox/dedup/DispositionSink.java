package io.wecominbox.dedup;

/** Where dispositions go: counted at once, stored off the message path. */
public interface DispositionSink {

    void record(DedupRequest request, Disposition disposition);
}
