-- CreateIndex
CREATE INDEX "social_account_provider_status_idx" ON "social_account"("provider", "status");
