package io.wecominbox.cluster;

import java.time.Instant;

/**
 * Where the heartbeat gets this node's figures. The figures are the ingest's and the relay's; ops implements
 * this, so cluster depends on neither (the pipeline never depends on cluster).
 */
public interface NodeFiguresSource {

    NodeFigures lastMinute(Instant now);
}
