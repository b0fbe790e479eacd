package io.wecominbox.ops.retention;

import static io.wecominbox.JsonProviders.JSON;

import io.wecominbox.ErrorBody;
import io.wecominbox.retention.RetentionJob;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Retention of customer data (docs/dba.md, "Retention"): what is due, and a run now. */
@Path("api/ops/retention")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "retention", description = "How long customer data is kept, and the job that erases and drops it")
@SecurityRequirement(name = "admin")
public class RetentionResource {

    private static final Logger LOG = Logger.getLogger(RetentionResource.class.getName());
    private static final String DUE = "SELECT * FROM retention_due ORDER BY table_name";

    @Inject
    private RetentionJob job;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @GET
    @Operation(summary = "Each table's retention policy in force and what is due now (view retention_due)")
    @APIResponse(responseCode = "200", description = "One object per table, the view's columns")
    public Response due() {
        try (Connection c = dataSource.getConnection(); PreparedStatement q = c.prepareStatement(DUE)) {
            q.setQueryTimeout(30); // counts over the age indexes; a huge backlog is an answer, not a hang
            JsonArrayBuilder rows = JSON.createArrayBuilder();
            try (ResultSet rs = q.executeQuery()) {
                ResultSetMetaData meta = rs.getMetaData();
                while (rs.next()) {
                    JsonObjectBuilder row = JSON.createObjectBuilder();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        String value = rs.getString(i);
                        if (value == null) {
                            row.addNull(meta.getColumnLabel(i));
                        } else if (meta.getColumnType(i) == java.sql.Types.BIGINT) {
                            row.add(meta.getColumnLabel(i), rs.getLong(i));
                        } else {
                            row.add(meta.getColumnLabel(i), value);
                        }
                    }
                    rows.add(row);
                }
            }
            return Response.ok(rows.build()).build();
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "retention_due unreadable", e);
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).entity(ErrorBody.UNAVAILABLE).build();
        }
    }

    @POST
    @Path("runs")
    @Operation(summary = "Run the retention job now on this node",
        description = "What the hourly run does: months of callback_log made ahead, content erased, rows and whole"
            + " callback_log months dropped. 409 while another node runs it.")
    @APIResponse(responseCode = "200", description = "What the run did (counts by table, partitions by name)")
    @APIResponse(responseCode = "409", description = "Another node is running it now")
    @APIResponse(responseCode = "500", description = "The wecom.retention.* settings are invalid: nothing was touched")
    public Response run() {
        try {
            var result = job.runOnce();
            if (!result.ran()) {
                return Response.status(Response.Status.CONFLICT)
                    .entity(new ErrorBody("running_elsewhere", "another node is running the retention job")).build();
            }
            return Response.ok(result.toJson()).build();
        } catch (IllegalArgumentException e) {
            return Response.serverError().entity(new ErrorBody("invalid_settings", e.getMessage())).build();
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "retention run failed", e);
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).entity(ErrorBody.UNAVAILABLE).build();
        }
    }
}
