-- CreateTable
CREATE TABLE "idempotent_request" (
    "workspace_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "claim_id" UUID NOT NULL,
    "status" INTEGER,
    "headers" JSONB,
    "body" BYTEA,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotent_request_pkey" PRIMARY KEY ("workspace_id","key")
);

-- CreateIndex
CREATE INDEX "idempotent_request_expires_at_idx" ON "idempotent_request"("expires_at");

-- AddForeignKey
ALTER TABLE "idempotent_request" ADD CONSTRAINT "idempotent_request_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
