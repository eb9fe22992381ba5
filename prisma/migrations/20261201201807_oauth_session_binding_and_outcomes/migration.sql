-- A start link started from the dashboard opens only in the browser of the session that started it (session_hash);
-- one started with an API key asks its visitor first. How each authorization ended is kept for the person who started
-- it (connection_outcome), so the dashboard shows the outcome from the server, never from its address.
-- AlterTable
ALTER TABLE "oauth_authorization" ADD COLUMN     "session_hash" TEXT;

-- CreateTable
CREATE TABLE "connection_outcome" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "connection_ids" UUID[],
    "error" TEXT,
    "reason" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "connection_outcome_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "connection_outcome_created_at_idx" ON "connection_outcome"("created_at");

-- AddForeignKey
ALTER TABLE "connection_outcome" ADD CONSTRAINT "connection_outcome_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
