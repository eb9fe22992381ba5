-- AlterTable
ALTER TABLE "ai_request" ADD COLUMN     "places" INTEGER NOT NULL DEFAULT 1;
